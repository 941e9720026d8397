import { authTokens, users } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { passwordChangedMail, resetPasswordMail } from '../../mail/templates.ts';
import { consumeEmailToken, issueEmailToken, voidEmailTokens } from './email-tokens.ts';
import { assertPasswordNotCommon, hashPassword } from './passwords.ts';
import { afterResponse, linkTo, sendAccountMail } from './send-account-mail.ts';

/**
 * Always succeeds from the caller's view, in the same time: an existing account receives a link, made
 * and sent after the response.
 */
export async function forgotPassword(app: FastifyInstance, email: string): Promise<void> {
  const [user] = await app.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, email));
  if (!user) return;
  afterResponse(app, async () => {
    const token = await issueEmailToken(app.db, user.id, 'reset_password');
    await sendAccountMail(app, user.email, resetPasswordMail(linkTo(app, '/reset-password', token)));
  });
}

/**
 * Sets the new password, signs out every session of the user and ends their other reset links. The e-mailed link proves the
 * address, so an account that was never verified is verified by it.
 */
export async function resetPassword(
  app: FastifyInstance,
  input: { token: string; password: string },
): Promise<void> {
  assertPasswordNotCommon(input.password);
  const passwordHash = await hashPassword(input.password);
  const user = await app.db.transaction(async (tx) => {
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
    return updated!;
  });
  await sendAccountMail(app, user.email, passwordChangedMail(`${app.config.publicUrl}/login`));
}
