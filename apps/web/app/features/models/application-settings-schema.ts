import {
  INSTRUCTIONS_MAX,
  NO_ANSWER_MESSAGE_MAX,
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  STRICTNESS_LEVELS,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
} from '@cairn/contracts/application-limits';
import { z } from 'zod';

const DAYS_MESSAGE = `A whole number of days from ${RETENTION_DAYS_MIN} to ${RETENTION_DAYS_MAX}`;

/**
 * The application page's settings form; the action turns the two model choices into `llm_models`,
 * and `retention` with `retention_days` into `conversation_retention_days` (the days are only read
 * when conversations are deleted after them).
 */
export const ZApplicationSettingsForm = z
  .object({
    text_model: z.string().min(1, 'Choose a text model'),
    embedding_model: z.string().min(1, 'Choose an embedding model'),
    instructions: z.string().max(INSTRUCTIONS_MAX, `At most ${INSTRUCTIONS_MAX} characters`),
    temperature: z.coerce
      .number({ error: 'Must be a number' })
      .min(TEMPERATURE_MIN, `At least ${TEMPERATURE_MIN}`)
      .max(TEMPERATURE_MAX, `At most ${TEMPERATURE_MAX}`),
    no_answer_message: z
      .string()
      .max(NO_ANSWER_MESSAGE_MAX, `At most ${NO_ANSWER_MESSAGE_MAX} characters`)
      .default(''),
    strictness: z.enum(STRICTNESS_LEVELS, { error: 'Choose how strictly to stay within the knowledge' }),
    retention: z.enum(['forever', 'days']).default('forever'),
    retention_days: z.string().default(''),
  })
  .superRefine((form, ctx) => {
    if (form.retention === 'days' && retentionDaysOf(form.retention_days) === null)
      ctx.addIssue({ code: 'custom', path: ['retention_days'], message: DAYS_MESSAGE });
  });

/** The days typed, when they are a whole number the API takes; null otherwise. */
export function retentionDaysOf(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const days = Number(text);
  return days >= RETENTION_DAYS_MIN && days <= RETENTION_DAYS_MAX ? days : null;
}
