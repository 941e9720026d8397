import { z } from 'zod';
import { PASSWORD_MAX, ZEmail, ZPassword } from './accounts.ts';

/** Requests and answers of the account page (`/api/me/…`): sessions, password, e-mail, deletion. */

export const ZSession = z.object({
  id: z.number().int(),
  /** A summary of the browser or client that signed in ("Chrome on macOS"). */
  device: z.string(),
  /** The client address of the last recorded use. */
  address: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  /** Recorded at most once a minute. */
  last_used_at: z.iso.datetime({ offset: true }),
  /** When it ends if it is not used before (or at its maximum age, whichever is first). */
  expires_at: z.iso.datetime({ offset: true }),
  /** The session this request was made with. */
  current: z.boolean(),
});
export type TSession = z.infer<typeof ZSession>;
export const ZSessionList = z.array(ZSession);

export const ZSessionParams = z.object({
  sessionId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
});

/** A password the user types to prove it is them: any length register accepted, never checked for rules. */
const ZCurrentPassword = z
  .string({ error: 'Required' })
  .min(1, 'Required')
  .max(PASSWORD_MAX * 4);

export const ZChangePasswordRequest = z.object({
  current_password: ZCurrentPassword,
  new_password: ZPassword,
});

export const ZChangeEmailRequest = z.object({ email: ZEmail, password: ZCurrentPassword });
export const ZChangeEmailResponse = z.object({ detail: z.string(), pending_email: z.string() });

export const ZDeleteAccountRequest = z.object({ password: ZCurrentPassword });

export const ZEndSessionsResponse = z.object({ ended: z.number().int() });
