import {
  INSTRUCTIONS_MAX,
  STRICTNESS_LEVELS,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
  type TStrictness,
} from '@cairn/contracts/applications';
import { z } from 'zod';

/** The application page's settings form; the action turns the two choices into `llm_models`. */
export const ZApplicationSettingsForm = z.object({
  text_model: z.string().min(1, 'Choose a text model'),
  embedding_model: z.string().min(1, 'Choose an embedding model'),
  instructions: z.string().max(INSTRUCTIONS_MAX, `At most ${INSTRUCTIONS_MAX} characters`),
  temperature: z.coerce
    .number({ error: 'Must be a number' })
    .min(TEMPERATURE_MIN, `At least ${TEMPERATURE_MIN}`)
    .max(TEMPERATURE_MAX, `At most ${TEMPERATURE_MAX}`),
  strictness: z.enum(STRICTNESS_LEVELS, { error: 'Choose how strictly to stay within the knowledge' }),
});

export const STRICTNESS_TEXT: Record<TStrictness, { label: string; description: string }> = {
  strict: {
    label: 'Only the knowledge',
    description: 'Answers only from the knowledge, and says so when it does not hold the answer.',
  },
  balanced: {
    label: 'Knowledge first',
    description: 'Prefers the knowledge; may fill gaps with general knowledge and says when it does.',
  },
  relaxed: {
    label: 'Knowledge as context',
    description: 'Uses the knowledge as context and answers freely.',
  },
};
