import { z } from 'zod';
import { asFreeText, hasControlCharacter, NO_CONTROL_CHARACTERS, wellFormed } from './text-rules.ts';

export {
  asFreeText,
  hasControlCharacter,
  NO_CONTROL_CHARACTERS,
  stripControlCharacters,
  wellFormed,
} from './text-rules.ts';

/** A one-line string: refused when it holds a control character. Chain trim/min/max after it. */
export const oneLine = (params?: Parameters<typeof z.string>[0]) =>
  z
    .string(params)
    .overwrite(wellFormed)
    .refine((v) => !hasControlCharacter(v), { error: NO_CONTROL_CHARACTERS, abort: true });

/** Multi-line free text: control characters other than tab and line ends are removed. */
export const freeText = (params?: Parameters<typeof z.string>[0]) => z.string(params).overwrite(asFreeText);
