import { users } from '@cairn/db/schema';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { confirmEmailChange, isEmailChangeToken } from './change-email.ts';
import { consumeEmailToken } from './email-tokens.ts';
import { queueAccountMail } from './send-account-mail.ts';

/** Opens an e-mailed verification link: a new account's, or an e-mail change's; says what happened. */
export async function verifyEmail(app: Ctx, token: string): Promise<string> {
  if (await isEmailChangeToken(app, token)) {
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

/**
 * Sends a fresh link to an unverified account; says nothing about whether the address exists: the
 * e-mail is queued whatever the address, so the answer takes the same time either way.
 */
export async function resendVerification(app: Ctx, email: string): Promise<void> {
  await queueAccountMail(app, { kind: 'verify_email', email });
}
