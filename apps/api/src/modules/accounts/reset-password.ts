import { authTokens, users } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { passwordChangedMail } from '../../mail/templates.ts';
import { consumeEmailToken, voidEmailTokens } from './email-tokens.ts';
import { assertPasswordNotCommon, hashPassword } from './passwords.ts';
import { queueAccountMail } from './send-account-mail.ts';

/**
 * Always succeeds from the caller's view, in the same time: the e-mail is queued whatever the
 * address, and an existing account receives a link when it is sent.
 */
export async function forgotPassword(app: Ctx, email: string): Promise<void> {
  await queueAccountMail(app, { kind: 'reset_password', email });
}

/**
 * Sets the new password, signs out every session of the user and ends their other reset links. The e-mailed link proves the
 * address, so an account that was never verified is verified by it.
 */
export async function resetPassword(app: Ctx, input: { token: string; password: string }): Promise<void> {
  assertPasswordNotCommon(input.password);
  const passwordHash = await hashPassword(input.password);
  await app.db.transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, input.token, 'reset_password');
    // A reset is a fresh start: every session, every other reset link and any pending e-mail change end with it.
    await tx.delete(authTokens).where(eq(authTokens.userId, userId));
    await voidEmailTokens(tx, userId, ['reset_password', 'change_email']);
    const [updated] = await tx
      .update(users)
      .set({
        passwordHash,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, userId))
      .returning({ email: users.email });
    const mail = passwordChangedMail(`${app.config.publicUrl}/login`);
    await queueAccountMail(app, { kind: 'notice', email: updated!.email, mail }, { tx });
  });
}
