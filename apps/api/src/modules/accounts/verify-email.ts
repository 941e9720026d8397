import { users } from '@cairn/db/schema';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { verifyEmailMail } from '../../mail/templates.ts';
import { confirmEmailChange, isEmailChangeToken } from './change-email.ts';
import { consumeEmailToken, issueEmailToken } from './email-tokens.ts';
import { afterResponse, linkTo, sendAccountMail } from './send-account-mail.ts';

/** Opens an e-mailed verification link: a new account's, or an e-mail change's; says what happened. */
export async function verifyEmail(app: FastifyInstance, token: string): Promise<string> {
  if (await isEmailChangeToken(app.db, token)) {
    await confirmEmailChange(app, token);
    return 'Your new e-mail address is confirmed. Sign in with it from now on.';
  }
  await app.db.transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, token, 'verify_email');
    await tx
      .update(users)
      .set({ emailVerifiedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
  });
  return 'Your e-mail address is verified. You can sign in now.';
}

/** Sends a fresh link to an unverified account; says nothing about whether the address exists. */
export async function resendVerification(app: FastifyInstance, email: string): Promise<void> {
  const [user] = await app.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.emailVerifiedAt)));
  if (!user) return;
  // After the response, so that the answer takes the same time either way.
  afterResponse(app, async () => {
    const token = await issueEmailToken(app.db, user.id, 'verify_email');
    await sendAccountMail(app, user.email, verifyEmailMail(linkTo(app, '/verify-email', token)));
  });
}
