import { createHmac, randomUUID } from 'node:crypto';
import type { Db } from '@cairn/db/client';
import { users } from '@cairn/db/schema';
import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { confirmNewEmailMail } from '../../mail/account-templates.ts';
import {
  accountExistsMail,
  type RenderedMail,
  resetPasswordMail,
  verifyEmailMail,
} from '../../mail/templates.ts';
import { issueEmailToken } from './email-tokens.ts';

export const ACCOUNT_MAIL_QUEUE = 'account-mail';

/**
 * An account e-mail waiting to be sent (decision 068). A job never holds a link's token: the
 * token is made from the job's random `nonce` with the server's secret key, so a copy of the
 * database alone opens no link, and a job run again after a crash sends the same link with the same
 * `Message-ID` (a copy the receiver can drop). The kinds that depend on whether an address has an
 * account look it up when sent, so the request that queues them takes the same time either way.
 */
export type AccountMail =
  /** A new account's verification link, or a fresh one (resend): only for an unverified account. */
  | { kind: 'verify_email'; email: string }
  /** Registering with an address that has an account: a note to its owner with a reset link. */
  | { kind: 'account_exists'; email: string }
  /** Forgot password: a reset link, only if the address has an account. */
  | { kind: 'reset_password'; email: string }
  /** An e-mail change's confirmation link; its token was stored by the request (`linkTokenOf`). */
  | { kind: 'confirm_new_email'; email: string }
  /** A message without a link token (password changed, address changed, account deleted …). */
  | { kind: 'notice'; email: string; mail: RenderedMail };
export type AccountMailJob = AccountMail & { nonce: string };

/** The link token of a job's nonce: 128 bits, like `newLinkToken`. */
export const linkTokenOf = (secretKey: string, nonce: string) =>
  createHmac('sha256', secretKey)
    .update(`account-mail:${nonce}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');

export const linkTo = (app: Ctx, pathname: string, token: string) =>
  `${app.config.publicUrl}${pathname}?token=${encodeURIComponent(token)}`;

/**
 * Queues an account e-mail, inside `tx` when given so that it is sent if and only if the change it
 * tells of is committed. Returns the nonce (for a token the caller stores itself).
 */
export async function queueAccountMail(
  app: Ctx,
  mail: AccountMail,
  options: { tx?: Db; nonce?: string } = {},
): Promise<string> {
  const nonce = options.nonce ?? randomUUID();
  await app.jobs.send(ACCOUNT_MAIL_QUEUE, { ...mail, nonce } satisfies AccountMailJob, {
    retryLimit: 8,
    retryDelay: 10,
    retryBackoff: true,
    tx: options.tx,
  });
  return nonce;
}

/** What the job sends, made now: null when there is nothing to send (no such account any more). */
async function render(app: Ctx, job: AccountMailJob): Promise<RenderedMail | null> {
  const token = linkTokenOf(app.config.secretKey, job.nonce);
  const accountOf = async (unverifiedOnly: boolean) => {
    const [user] = await app.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, job.email), unverifiedOnly ? isNull(users.emailVerifiedAt) : undefined));
    return user;
  };
  switch (job.kind) {
    case 'verify_email': {
      const user = await accountOf(true);
      if (!user) return null;
      await issueEmailToken(app.db, user.id, 'verify_email', { token });
      return verifyEmailMail(linkTo(app, '/verify-email', token));
    }
    case 'account_exists':
    case 'reset_password': {
      const user = await accountOf(false);
      if (!user) return null;
      await issueEmailToken(app.db, user.id, 'reset_password', { token });
      const url = linkTo(app, '/reset-password', token);
      return job.kind === 'account_exists' ? accountExistsMail(url) : resetPasswordMail(url);
    }
    case 'confirm_new_email':
      return confirmNewEmailMail(linkTo(app, '/verify-email', token));
    case 'notice':
      return job.mail;
  }
}

/** Sends one queued account e-mail; run again (after a crash), it sends the very same message. */
export async function sendAccountMailJob(app: Ctx, job: AccountMailJob): Promise<void> {
  const mail = await render(app, job);
  if (!mail) return;
  const host = new URL(app.config.publicUrl).hostname;
  await app.mailer.send(job.email, { ...mail, messageId: `<account-${job.nonce}@${host}>` });
}

/** The account-mail worker: a failed send fails its job, which pg-boss retries with backoff. */
export async function defineAccountMail(app: Ctx): Promise<void> {
  await app.jobs.define<AccountMailJob>(ACCOUNT_MAIL_QUEUE, {
    work: {
      batchSize: 1,
      async handle(jobs) {
        for (const job of jobs) {
          await sendAccountMailJob(app, job.data).catch((err: unknown) => {
            app.log.error({ err, kind: job.data.kind }, 'sending account e-mail failed; it is tried again');
            throw err;
          });
        }
      },
    },
  });
}
