import { z } from 'zod';
import { MESSAGES } from './accounts.ts';

export const APPLICATION_NAME_MAX = 255;

export const ZApplicationName = z
  .string({ error: MESSAGES.required })
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

export const ZApplication = z.object({
  uuid: z.uuid(),
  name: z.string(),
  llm_models: z.array(ZLlmModel),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TApplication = z.infer<typeof ZApplication>;

export const ZApplicationList = z.array(ZApplication);
export const ZCreateApplicationForm = z.object({ name: ZApplicationName });
export const ZUpdateApplicationRequest = z.object({ name: ZApplicationName.optional() });
export const ZAppParams = z.object({ appId: z.uuid({ error: 'Not a valid id' }) });
