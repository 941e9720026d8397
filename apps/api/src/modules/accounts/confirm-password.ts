import { fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { enforceLimits } from '../../lib/rate-limit.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { verifyPassword } from './passwords.ts';

/** Password checks of a signed-in user (a stolen session guessing the password): per account. */
export const PASSWORD_CHECK_LIMIT = { max: 10, windowSeconds: 600 };

export const WRONG_PASSWORD = 'That is not your current password';

/**
 * A signed-in user re-enters their password before a change that matters (password, e-mail,
 * deletion). A wrong one is a 400 on `field`; guesses are limited per account.
 */
export async function confirmPassword(
  app: Ctx,
  user: AuthUser,
  password: string,
  field: string,
): Promise<void> {
  await enforceLimits(app.database, [{ key: `password-check:user:${user.id}`, ...PASSWORD_CHECK_LIMIT }]);
  if (!(await verifyPassword(user.passwordHash, password))) throw fieldError(field, WRONG_PASSWORD);
}
