import { users } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { passwordChangedHereMail } from '../../mail/account-templates.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { endOtherSessions } from './account-sessions.ts';
import { confirmPassword } from './confirm-password.ts';
import { voidEmailTokens } from './email-tokens.ts';
import { assertPasswordNotCommon, hashPassword } from './passwords.ts';
import { queueAccountMail } from './send-account-mail.ts';

/**
 * Changes the password of a signed-in user: the session making the change stays, every other one
 * ends, and so does every outstanding password reset or e-mail change link.
 */
export async function changePassword(
  app: Ctx,
  user: AuthUser,
  currentTokenHash: string,
  input: { current_password: string; new_password: string },
): Promise<void> {
  await confirmPassword(app, user, input.current_password, 'current_password');
  assertPasswordNotCommon(input.new_password, 'new_password');
  const passwordHash = await hashPassword(input.new_password);
  await app.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, user.id));
    await endOtherSessions(tx, user.id, currentTokenHash);
    await voidEmailTokens(tx, user.id, ['reset_password', 'change_email']);
    const mail = passwordChangedHereMail(`${app.config.publicUrl}/login`);
    await queueAccountMail(app, { kind: 'notice', email: user.email, mail }, { tx });
  });
}
