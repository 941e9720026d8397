import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../../mail/mailer.ts';
import type { RenderedMail } from '../../mail/templates.ts';

/**
 * Account mail is sent while the request waits, so a token never sits in a job table in clear.
 * A failed send is logged, not shown: the user can ask again (resend, forgot password).
 */
export async function sendAccountMail(app: FastifyInstance, to: string, mail: RenderedMail): Promise<void> {
  try {
    await app.mailer.send(to, mail);
  } catch (err) {
    app.log.error({ err, subject: mail.subject }, 'sending account e-mail failed');
  }
}

export const linkTo = (app: FastifyInstance, pathname: string, token: string) =>
  `${app.config.publicUrl}${pathname}?token=${encodeURIComponent(token)}`;

/** Account-mail work still running after its response, per app (its mailer), for a clean close. */
const pending = new WeakMap<Mailer, Set<Promise<void>>>();

/**
 * Runs `work` (make a link, send a message) after the response is sent (decision 057): endpoints that
 * must not tell whether an address has an account answer in the same time whether or not there is
 * mail to send. The token stays in memory until sent, never in a job table (decision 004).
 */
export function afterResponse(app: FastifyInstance, work: () => Promise<void>): void {
  const running = pending.get(app.mailer) ?? new Set<Promise<void>>();
  pending.set(app.mailer, running);
  const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((err: unknown) => app.log.error({ err }, 'account e-mail work failed'))
    .finally(() => running.delete(task));
  running.add(task);
}

/** Waits for the account mail still being sent (on close, before the mailer closes). */
export async function settleAccountMail(app: FastifyInstance): Promise<void> {
  await Promise.all(pending.get(app.mailer) ?? []);
}
