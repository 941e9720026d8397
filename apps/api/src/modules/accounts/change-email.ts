import { randomUUID } from 'node:crypto';
import { preparedPerDb } from '@cairn/db/prepared';
import { emailTokens, users } from '@cairn/db/schema';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { AppError, fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { hashToken } from '../../lib/tokens.ts';
import {
  emailChangedMail,
  emailChangeRequestedMail,
  newEmailInUseMail,
} from '../../mail/account-templates.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { confirmPassword } from './confirm-password.ts';
import { consumeEmailToken, issueEmailToken, voidEmailTokens } from './email-tokens.ts';
import { linkTokenOf, queueAccountMail } from './send-account-mail.ts';

/**
 * Asks to move the account to another address. Nothing changes until the new address confirms
 * through its link; the current address is told at once. The answer is the same whether or not the
 * new address already has an account (that address is told instead, without a link), so the
 * page cannot be used to find out who has one.
 */
export async function requestEmailChange(
  app: Ctx,
  user: AuthUser,
  input: { email: string; password: string },
): Promise<{ detail: string; pending_email: string }> {
  await confirmPassword(app, user, input.password, 'password');
  if (input.email === user.email) throw fieldError('email', 'This is already your address');
  const [taken] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, input.email), ne(users.id, user.id)));
  await app.db.transaction(async (tx) => {
    // Only the latest request counts.
    await voidEmailTokens(tx, user.id, ['change_email']);
    // The link's token is the queued e-mail's (made from its nonce): stored here, sent by the job.
    const nonce = randomUUID();
    const token = linkTokenOf(app.config.secretKey, nonce);
    await issueEmailToken(tx, user.id, 'change_email', { newEmail: input.email, token });
    await queueAccountMail(
      app,
      taken
        ? { kind: 'notice', email: input.email, mail: newEmailInUseMail(`${app.config.publicUrl}/login`) }
        : { kind: 'confirm_new_email', email: input.email },
      { tx, nonce },
    );
    await queueAccountMail(
      app,
      { kind: 'notice', email: user.email, mail: emailChangeRequestedMail(input.email) },
      { tx },
    );
  });
  return {
    detail: `A link to confirm is on its way to ${input.email}. Your address changes when it is opened.`,
    pending_email: input.email,
  };
}

// The account page asks for it.
const pendingEmail = preparedPerDb((db) =>
  db
    .select({ newEmail: emailTokens.newEmail })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.userId, sql.placeholder('userId')),
        eq(emailTokens.purpose, 'change_email'),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(emailTokens.id))
    .limit(1)
    .prepare('pending_email_change'),
);

/** The address the user asked to move to and has not confirmed yet, if any. */
export async function pendingEmailOf({ db }: Pick<Ctx, 'db'>, userId: number): Promise<string | null> {
  const [row] = await pendingEmail(db).execute({ userId });
  return row?.newEmail ?? null;
}

/** Whether an e-mailed token is one of an e-mail change (the verify-email link serves both). */
export async function isEmailChangeToken({ db }: Pick<Ctx, 'db'>, token: string): Promise<boolean> {
  if (!token.trim()) return false;
  const [row] = await db
    .select({ purpose: emailTokens.purpose })
    .from(emailTokens)
    .where(eq(emailTokens.tokenHash, hashToken(token.trim())));
  return row?.purpose === 'change_email';
}

/**
 * Moves the account to the confirmed address (the username too, when it was the old address). The
 * old address is told. An address taken meanwhile by another account is refused.
 */
export async function confirmEmailChange(app: Ctx, token: string): Promise<void> {
  await app.db.transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, token, 'change_email');
    const [link] = await tx
      .select({ newEmail: emailTokens.newEmail })
      .from(emailTokens)
      .where(eq(emailTokens.tokenHash, hashToken(token.trim())));
    const newEmail = link?.newEmail;
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (!newEmail || !user) throw new AppError('invalid_token', 'This link is invalid. Ask for a new one.');
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, newEmail));
    if (taken) throw new AppError('invalid_token', 'This address already belongs to an account.');
    await tx
      .update(users)
      .set({
        email: newEmail,
        username: user.username === user.email ? newEmail : user.username,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, userId));
    await voidEmailTokens(tx, userId, ['change_email']);
    await queueAccountMail(
      app,
      { kind: 'notice', email: user.email, mail: emailChangedMail(newEmail) },
      { tx },
    );
  });
}
