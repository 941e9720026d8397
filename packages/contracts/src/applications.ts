import { z } from 'zod';
import { MESSAGES } from './accounts.ts';
import {
  INSTRUCTIONS_MAX,
  NO_ANSWER_MESSAGE_MAX,
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  STRICTNESS_LEVELS,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
} from './application-limits.ts';
import { ZKnowledgeItemsForm } from './knowledge.ts';
import { freeText, oneLine } from './text.ts';

export const APPLICATION_NAME_MAX = 255;

export const ZApplicationName = oneLine({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(APPLICATION_NAME_MAX, `At most ${APPLICATION_NAME_MAX} characters`);

export const ZModelType = z.enum(['text', 'embedding']);
export type TModelType = z.infer<typeof ZModelType>;

/** A model attached to an application; the first of each `model_type` is the selected one. */
export const ZLlmModel = z.object({
  uuid: z.string(),
  name: z.string(),
  provider: z.string(),
  model_type: ZModelType,
});
export type TLlmModel = z.infer<typeof ZLlmModel>;

export * from './application-limits.ts';
export const ZStrictness = z.enum(STRICTNESS_LEVELS);
export type TStrictness = z.infer<typeof ZStrictness>;

export const DEFAULT_APPLICATION_SETTINGS = {
  instructions: '',
  temperature: 0.2,
  strictness: 'strict' as TStrictness,
};

export const ZApplication = z.object({
  uuid: z.uuid(),
  name: z.string(),
  llm_models: z.array(ZLlmModel),
  /** Extra instructions for the text model, added to every answer's prompt. */
  instructions: z.string(),
  temperature: z.number(),
  strictness: ZStrictness,
  /**
   * What the assistant says when the knowledge does not cover a question, in every channel. Empty:
   * "Sorry, I don't have information about that." in the question's language (en, de, fr, es).
   */
  no_answer_message: z.string(),
  /**
   * Conversations whose last message is older than this many days are deleted by a daily job;
   * `null` keeps them forever. The analytics already counted stay.
   */
  conversation_retention_days: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TApplication = z.infer<typeof ZApplication>;

export const ZApplicationList = z.array(ZApplication);

/** What an application holds, for the applications list and the delete confirmation. */
export const ZApplicationCounts = z.object({
  knowledge_items: z.number().int(),
  conversations: z.number().int(),
  api_keys: z.number().int(),
  /** The widget is switched on (it answers visitors on the allowed sites). */
  widget_enabled: z.boolean(),
});
export type TApplicationCounts = z.infer<typeof ZApplicationCounts>;
export const ZApplicationSummary = ZApplication.extend({ counts: ZApplicationCounts });
export type TApplicationSummary = z.infer<typeof ZApplicationSummary>;
export const ZApplicationSummaryList = z.array(ZApplicationSummary);

/** `POST /api/applications/{appId}/duplicate/`: the copy's name, by default the original's with " (copy)". */
export const ZDuplicateApplicationRequest = z.object({ name: ZApplicationName.optional() });
export type TDuplicateApplicationRequest = z.infer<typeof ZDuplicateApplicationRequest>;
/** The name of a copy when none is given, cut so it stays within the limit. */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  return `${name.slice(0, APPLICATION_NAME_MAX - suffix.length)}${suffix}`;
}
export const ZCreateApplicationForm = z.object({ name: ZApplicationName });
/** The body of `POST /api/applications/` as documented: the name, and knowledge items if any. */
export const ZCreateApplicationMultipart = ZCreateApplicationForm.extend(ZKnowledgeItemsForm.partial().shape);
export const LLM_MODELS_MAX = 20;
export const ZUpdateApplicationRequest = z.object({
  name: ZApplicationName.optional(),
  instructions: freeText({ error: 'Must be text' })
    .max(INSTRUCTIONS_MAX, `At most ${INSTRUCTIONS_MAX} characters`)
    .optional(),
  temperature: z
    .number({ error: 'Must be a number' })
    .min(TEMPERATURE_MIN, `At least ${TEMPERATURE_MIN}`)
    .max(TEMPERATURE_MAX, `At most ${TEMPERATURE_MAX}`)
    .optional(),
  strictness: z
    .enum(STRICTNESS_LEVELS, { error: `Choose one of: ${STRICTNESS_LEVELS.join(', ')}` })
    .optional(),
  no_answer_message: freeText({ error: 'Must be text' })
    .trim()
    .max(NO_ANSWER_MESSAGE_MAX, `At most ${NO_ANSWER_MESSAGE_MAX} characters`)
    .optional(),
  conversation_retention_days: z
    .number({ error: `Must be a number of days or null` })
    .int('Must be a whole number of days')
    .min(RETENTION_DAYS_MIN, `At least ${RETENTION_DAYS_MIN} day`)
    .max(RETENTION_DAYS_MAX, `At most ${RETENTION_DAYS_MAX} days`)
    .nullable()
    .optional(),
  /**
   * The application's models by uuid (built-in ids or the caller's provider models), in order: the
   * first `text` and the first `embedding` model are the selected ones; one of each is required.
   */
  llm_models: z
    .array(z.string({ error: 'Must be a model id' }).min(1, 'Must be a model id'), {
      error: 'Must be a list',
    })
    .max(LLM_MODELS_MAX, `At most ${LLM_MODELS_MAX} models`)
    .optional(),
});
export type TUpdateApplicationRequest = z.infer<typeof ZUpdateApplicationRequest>;
export const ZAppParams = z.object({ appId: z.uuid({ error: 'Not a valid id' }) });
