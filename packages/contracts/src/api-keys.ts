import { z } from 'zod';
import { oneLine } from './text.ts';

/**
 * Application API keys: `cairn_` + 32 base62 characters (190 random bits) + a 6-character base62
 * CRC32 of them, the way GitHub's tokens let secret scanners spot them and a typo be caught without
 * a lookup. Only a hash is stored; the key itself is shown once, when it is created.
 */
export const API_KEY_PREFIX = 'cairn_';
export const API_KEY_NAME_MAX = 100;
export const API_KEY_RPM_DEFAULT = 60;
export const API_KEY_RPM_MIN = 1;
export const API_KEY_RPM_MAX = 10_000;
/** An application has at most this many keys at once. */
export const API_KEYS_MAX = 50;

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
