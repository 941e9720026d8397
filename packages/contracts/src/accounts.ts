import { z } from 'zod';
import { oneLine } from './text.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const MESSAGES = {
  required: 'Required',
  invalidEmail: 'Invalid email address',
  passwordMin: 'At least 8 characters',
  passwordMax: 'At most 128 characters',
  passwordCommon: 'This password is too common; choose a less guessable one',
  passwordsMustMatch: 'Passwords must match',
  invalidCredentials: 'Invalid email or password',
  emailNotVerified: 'Verify your e-mail address before logging in',
  registered: 'Check your inbox: we sent you an e-mail to verify your address before logging in.',
} as const;

/** Trimmed, lower-cased e-mail address. */
export const ZEmail = z
  .string({ error: MESSAGES.required })
  .trim()
  .toLowerCase()
  .min(1, MESSAGES.required)
  .pipe(z.email({ error: MESSAGES.invalidEmail }).max(254, MESSAGES.invalidEmail));

/** Length rules only; the common-password list is checked on the server. */
export const ZPassword = z
  .string({ error: MESSAGES.required })
  .min(1, MESSAGES.required)
  .min(PASSWORD_MIN, MESSAGES.passwordMin)
  .max(PASSWORD_MAX, MESSAGES.passwordMax);

export const ZRegisterRequest = z.object({
  email: ZEmail,
  username: oneLine().trim().max(150).optional(),
  password: ZPassword,
});
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;

/**
 * The confirmation of a new password (spec §5: its errors go on `confirm_password`): 'Required'
 * when empty; else 'Passwords must match' when it differs, even when both are too short (the
 * mismatch is what the person has to see there, the length rule shows on the password); else the
 * password rules themselves.
 */
export function checkConfirmation(v: { password: string; confirm_password: string }, ctx: z.RefinementCtx) {
  const confirm = v.confirm_password;
  const message = !confirm
    ? MESSAGES.required
    : confirm !== v.password
      ? MESSAGES.passwordsMustMatch
      : ZPassword.safeParse(confirm).error?.issues[0]?.message;
  if (message) ctx.addIssue({ code: 'custom', message, path: ['confirm_password'] });
}

/** The registration form adds a confirmation field that never leaves the browser. */
export const ZRegisterForm = z
  .object({
    email: ZEmail,
    password: ZPassword,
    confirm_password: z.string({ error: MESSAGES.required }),
  })
  .superRefine(checkConfirmation);
export type TRegisterForm = z.infer<typeof ZRegisterForm>;

export const ZUser = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  /** What the user chose to be called on replies to visitors; '' follows the first name. */
  display_name: z.string(),
  /** The name visitors see on the user's replies: display_name, else first_name, else "Support". */
  public_name: z.string(),
  sender_identifier: z.string(),
});
export type TUser = z.infer<typeof ZUser>;

/** The same for a new address and one that already has an account (no enumeration). */
export const ZRegisterResponse = z.object({ email: z.string(), username: z.string(), detail: z.string() });
export type TRegisterResponse = z.infer<typeof ZRegisterResponse>;

export const ZLoginRequest = z.object({
  email: ZEmail,
  password: z
    .string({ error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(PASSWORD_MAX * 4),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;
export const ZLoginResponse = z.object({ token: z.string(), user: ZUser });
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const ZTokenRequest = z.object({ token: z.string({ error: MESSAGES.required }).max(512) });
export const ZEmailRequest = z.object({ email: ZEmail });
export const ZResetPasswordRequest = z.object({
  token: z.string({ error: MESSAGES.required }).max(512),
  password: ZPassword,
});
export const ZUpdateMeRequest = z.object({
  first_name: oneLine().trim().max(150).optional(),
  last_name: oneLine().trim().max(150).optional(),
  display_name: oneLine().trim().max(150).optional(),
});
export const ZDetailResponse = z.object({ detail: z.string() });

/** Prefix of a registered user's chat sender identifier (`reg_<id>`). */
export const SENDER_PREFIX = 'reg';
export const senderIdentifier = (userId: number) => `${SENDER_PREFIX}_${userId}`;
