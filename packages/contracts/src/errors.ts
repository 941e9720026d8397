import { z } from 'zod';

/** Every error the API returns has this body (DESIGN §4). */
export const ZErrorBody = z.object({
  detail: z.string(),
  code: z.string(),
  errors: z.union([z.array(z.string()), z.record(z.string(), z.array(z.string()))]).optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** Error codes and the HTTP status each one maps to: the one code→status table of the API. */
export const ERROR_STATUS = {
  invalid: 400,
  invalid_token: 400,
  invalid_credentials: 400,
  unauthorized: 401,
  forbidden: 403,
  email_not_verified: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
