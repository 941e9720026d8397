import { z } from 'zod';
import { API_KEY_NAME_MAX, API_KEY_RPM_DEFAULT, API_KEY_RPM_MAX, API_KEY_RPM_MIN } from './api-key-limits.ts';
import { oneLine } from './text.ts';

export * from './api-key-limits.ts';

export const ZApiKey = z.object({
  uuid: z.uuid(),
  name: z.string(),
  /** The key's first characters (`cairn_` and four more): with `last_four`, how a key is recognised. */
  prefix: z.string(),
  last_four: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  /** After this moment the key is refused; null: it never expires. */
  expires_at: z.string().nullable(),
  requests_per_minute: z.number().int(),
});
export type TApiKey = z.infer<typeof ZApiKey>;
export const ZApiKeyList = z.array(ZApiKey);

/** The answer to creating a key: the only time `key` is ever shown. */
export const ZCreatedApiKey = ZApiKey.extend({ key: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

export const ZCreateApiKeyRequest = z.object({
  name: oneLine({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(API_KEY_NAME_MAX, `At most ${API_KEY_NAME_MAX} characters`),
  expires_at: z.iso
    .datetime({ offset: true, error: 'Must be a date and time such as 2027-01-31T00:00:00Z' })
    .refine((s) => Date.parse(s) > Date.now(), 'Must be in the future')
    .nullable()
    .optional(),
  requests_per_minute: z
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(API_KEY_RPM_MIN, `At least ${API_KEY_RPM_MIN}`)
    .max(API_KEY_RPM_MAX, `At most ${API_KEY_RPM_MAX.toLocaleString('en')}`)
    .default(API_KEY_RPM_DEFAULT),
});
export type TCreateApiKeyRequest = z.input<typeof ZCreateApiKeyRequest>;

export const ZApiKeyParams = z.object({
  appId: z.uuid({ error: 'Not a valid id' }),
  keyId: z.uuid({ error: 'Not a valid id' }),
});

/** Where OpenAI-compatible clients point: `PUBLIC_URL` + this. */
export const PUBLIC_API_BASE_PATH = '/api/v1';
