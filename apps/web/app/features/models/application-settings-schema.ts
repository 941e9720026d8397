import {
  INSTRUCTIONS_MAX,
  NO_ANSWER_MESSAGE_MAX,
  STRICTNESS_LEVELS,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
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
  no_answer_message: z
    .string()
    .max(NO_ANSWER_MESSAGE_MAX, `At most ${NO_ANSWER_MESSAGE_MAX} characters`)
    .default(''),
  strictness: z.enum(STRICTNESS_LEVELS, { error: 'Choose how strictly to stay within the knowledge' }),
});
