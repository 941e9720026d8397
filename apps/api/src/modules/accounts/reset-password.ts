import { authTokens, users } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { passwordChangedMail, resetPasswordMail } from '../../mail/templates.ts';
import { consumeEmailToken, issueEmailToken } from './email-tokens.ts';
import { assertPasswordNotCommon, hashPassword } from './passwords.ts';
import { linkTo, sendAccountMail } from './send-account-mail.ts';

/** Always succeeds from the caller's view; an existing account receives a link. */
export async function forgotPassword(app: FastifyInstance, email: string): Promise<void> {
  const [user] = await app.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, email));
  if (!user) return;
  const token = await issueEmailToken(app.db, user.id, 'reset_password');
  await sendAccountMail(app, user.email, resetPasswordMail(linkTo(app, '/reset-password', token)));
}

/**
 * Sets the new password and signs out every session of the user. The e-mailed link proves the
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
    await tx.delete(authTokens).where(eq(authTokens.userId, userId));
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
