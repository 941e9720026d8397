import { z } from 'zod';
import { ZModelType } from './applications.ts';
import { PROVIDER_KIND_VALUES, type TProviderKind } from './provider-kinds.ts';
import { oneLine } from './text.ts';

export * from './provider-kinds.ts';
export const ZProviderKind = z.enum(PROVIDER_KIND_VALUES, {
  error: `Choose one of: ${PROVIDER_KIND_VALUES.join(', ')}`,
});

/** Kinds whose hosted API always needs a key; Ollama and compatible servers often run without one. */
export const KEY_REQUIRED_KINDS: readonly TProviderKind[] = ['openai', 'anthropic'];

export const PROVIDER_NAME_MAX = 100;
export const API_KEY_MAX = 1000;
export const MODEL_NAME_MAX = 200;

const ZName = oneLine({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(PROVIDER_NAME_MAX, `At most ${PROVIDER_NAME_MAX} characters`);
const ZBaseUrl = oneLine().trim().max(2000, 'At most 2000 characters');
const ZApiKey = oneLine().trim().max(API_KEY_MAX, `At most ${API_KEY_MAX} characters`);

export const ZProviderModel = z.object({
  uuid: z.uuid(),
  /** The model's id as the provider's API names it, e.g. `gpt-4o-mini`, `nomic-embed-text`. */
  name: z.string(),
  model_type: ZModelType,
  /** What the owner pays per million tokens, for the analytics' estimated cost; null: not entered. */
  input_price_per_million: z.number().nullable(),
  output_price_per_million: z.number().nullable(),
  created_at: z.string(),
});
export type TProviderModel = z.infer<typeof ZProviderModel>;

export const ZModelProvider = z.object({
  uuid: z.uuid(),
  kind: ZProviderKind,
  name: z.string(),
  base_url: z.string(),
  /** The last 4 characters of the stored key; the key itself is never sent back. */
  key_last4: z.string().nullable(),
  models: z.array(ZProviderModel),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TModelProvider = z.infer<typeof ZModelProvider>;
export const ZModelProviderList = z.array(ZModelProvider);

export const ZCreateModelProviderRequest = z.object({
  kind: ZProviderKind,
  name: ZName,
  /** Defaults per kind (OpenAI, Anthropic, Ollama on localhost); required for `openai_compatible`. */
  base_url: ZBaseUrl.optional(),
  api_key: ZApiKey.optional(),
});
export type TCreateModelProviderRequest = z.infer<typeof ZCreateModelProviderRequest>;

export const ZUpdateModelProviderRequest = z.object({
  name: ZName.optional(),
  base_url: ZBaseUrl.optional(),
  /** A new key replaces the stored one; `null` or `""` removes it; absent keeps it. */
  api_key: ZApiKey.nullable().optional(),
});
export type TUpdateModelProviderRequest = z.infer<typeof ZUpdateModelProviderRequest>;

export const ZProviderParams = z.object({ providerId: z.uuid({ error: 'Not a valid id' }) });
export const ZProviderModelParams = ZProviderParams.extend({
  modelId: z.uuid({ error: 'Not a valid id' }),
});

export const ZAddProviderModelRequest = z.object({
  name: oneLine({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(MODEL_NAME_MAX, `At most ${MODEL_NAME_MAX} characters`),
  model_type: ZModelType,
});
export type TAddProviderModelRequest = z.infer<typeof ZAddProviderModelRequest>;

/** The most a price per million tokens may be (any currency): beyond it is a typing mistake. */
export const MODEL_PRICE_MAX = 1_000_000;
const ZPricePerMillion = z
  .number({ error: 'Must be a number' })
  .min(0, 'At least 0')
  .max(MODEL_PRICE_MAX, `At most ${MODEL_PRICE_MAX.toLocaleString('en')}`)
  .nullable();
/** A model's prices per million tokens; null clears one, an absent field stays as it is. */
export const ZUpdateProviderModelRequest = z.object({
  input_price_per_million: ZPricePerMillion.optional(),
  output_price_per_million: ZPricePerMillion.optional(),
});
export type TUpdateProviderModelRequest = z.infer<typeof ZUpdateProviderModelRequest>;

/** The result of "test connection": whether the provider answered, and the models it lists. */
export const ZTestConnectionResponse = z.object({
  ok: z.boolean(),
  /** Why it failed, in words a person understands; absent on success. */
  detail: z.string().optional(),
  /** Model ids the provider lists (empty when it cannot list them). */
  models: z.array(z.string()),
});
export type TTestConnectionResponse = z.infer<typeof ZTestConnectionResponse>;

/** A model the caller can attach to an application: the built-ins and every model of their providers. */
export const ZAvailableModel = z.object({
  uuid: z.string(),
  name: z.string(),
  provider: z.string(),
  model_type: ZModelType,
  /** The provider's display name (`Built-in` for built-ins). */
  provider_name: z.string(),
  provider_uuid: z.string().nullable(),
});
export type TAvailableModel = z.infer<typeof ZAvailableModel>;
export const ZAvailableModelList = z.array(ZAvailableModel);
