import { NOTIFICATION_EVENT_LABELS, type TNotificationEvent } from '@cairn/contracts/notifications';
import { chatroomViews, notifications, users } from '@cairn/db/schema';
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Job } from 'pg-boss';
import type { Ctx } from '../../lib/ctx.ts';
import type { QueueOptions } from '../../plugins/jobs.ts';
import { bodyAsOf } from './handoff-deadline.ts';
import { notificationMail } from './notification-mail.ts';
import { getProfile } from './profile.ts';
import { quietHoursEnd } from './quiet-hours.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

export const EMAIL_QUEUE = 'notification-email';
export interface EmailJob {
  notificationId: number;
  /** Sends that failed so far (absent in jobs queued before it was counted). */
  failures?: number;
}

/**
 * The waits before trying again an e-mail whose sending failed (the mailer refused, the database
 * went away): about 22 hours in all, after which the e-mail is given up.
 */
export const EMAIL_RETRY_DELAYS_MS = [1, 5, 15, 60, 180, 360, 720].map((minutes) => minutes * 60_000);

/**
 * Wakes a worker when the e-mail is due. The row holds the truth (status, due time); a job that
 * fires early or twice only re-reads it.
 */
export async function queueNotificationEmail(
  app: Ctx,
  notificationId: number,
  dueAt: Date,
  { failures = 0, tx }: QueueOptions & { failures?: number } = {},
) {
  const seconds = Math.max(0, Math.ceil((dueAt.getTime() - app.notifications.clock().getTime()) / 1000));
  await app.jobs.send<EmailJob>(
    EMAIL_QUEUE,
    { notificationId, failures },
    { startAfter: seconds, retryLimit: 5, tx },
  );
}

/** The e-mail worker's batch, one job after the other. */
export async function runEmailJobs(app: Ctx, jobs: Job<EmailJob>[]) {
  for (const job of jobs) await runEmailJob(app, job.data);
}

/**
 * One run of an e-mail job. A failed send is tried again after the next wait of
 * `EMAIL_RETRY_DELAYS_MS`; when they are spent the e-mail is given up (`skipped`) and logged, so
 * a mailer that stays broken does not make a job a minute forever.
 */
export async function runEmailJob(app: Ctx, job: EmailJob): Promise<void> {
  const { notificationId, failures = 0 } = job;
  try {
    await deliverNotificationEmail(app, notificationId, failures);
  } catch (err) {
    const delay = EMAIL_RETRY_DELAYS_MS[failures];
    if (delay === undefined) {
      app.log.error({ err, notificationId, failures: failures + 1 }, 'notification e-mail failed; giving up');
      await app.db
        .update(notifications)
        .set({ emailStatus: 'skipped' })
        .where(and(eq(notifications.id, notificationId), eq(notifications.emailStatus, 'pending')));
      return;
    }
    app.log.error(
      { err, notificationId, failures: failures + 1, retryInMs: delay },
      'notification e-mail failed; trying again later',
    );
    const retryAt = new Date(app.notifications.clock().getTime() + delay);
    await queueNotificationEmail(app, notificationId, retryAt, { failures: failures + 1 });
  }
}

/** How long a claimed e-mail is left to its sender before a later job sends it again (it died). */
export const EMAIL_SEND_LEASE_MS = 5 * 60_000;

/**
 * The same for every send of one notification's e-mail, so a mail system (or a mail client) drops
 * the second copy sent after a crash between sending and recording it.
 */
export function notificationMessageId(app: Ctx, notificationId: number): string {
  return `<notification-${notificationId}@${new URL(app.config.publicUrl).hostname}>`;
}

export type EmailOutcome = 'sent' | 'waiting' | 'held' | 'skipped' | 'gone';

/**
 * Sends one notification's e-mail if it is still wanted: not before its due time, not if the owner
 * has opened the conversation since the event (seen in the app: nothing left to tell), not if the
 * event's e-mail was turned off meanwhile, and not during quiet hours (held until they end) unless
 * it is an urgent handoff.
 */
export async function deliverNotificationEmail(
  app: Ctx,
  notificationId: number,
  failures = 0,
): Promise<EmailOutcome> {
  const now = app.notifications.clock();
  const [row] = await app.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, notificationId), eq(notifications.emailStatus, 'pending')));
  if (!row) return 'gone';
  if (row.emailDueAt && row.emailDueAt > now) {
    await queueNotificationEmail(app, row.id, row.emailDueAt, { failures });
    return 'waiting';
  }
  const event = row.event as TNotificationEvent;
  const profile = await getProfile(app.db, row.ownerId);
  const skip = async () => {
    await app.db.update(notifications).set({ emailStatus: 'skipped' }).where(eq(notifications.id, row.id));
    return 'skipped' as const;
  };
  if (!profile.events[event].includes('email')) return skip();
  if (row.chatroomId !== null) {
    const [view] = await app.db
      .select({ seenAt: chatroomViews.seenAt })
      .from(chatroomViews)
      .where(and(eq(chatroomViews.chatroomId, row.chatroomId), eq(chatroomViews.userId, row.ownerId)));
    if (view && view.seenAt >= row.createdAt) return skip();
  }
  if (profile.quiet_hours && !row.urgent) {
    const end = quietHoursEnd(now, profile.quiet_hours);
    if (end) {
      await app.db.update(notifications).set({ emailDueAt: end }).where(eq(notifications.id, row.id));
      // The failures so far still count: quiet hours every night must not reset the bound.
      await queueNotificationEmail(app, row.id, end, { failures });
      return 'held';
    }
  }
  // Claimed before sending, for as long as a send may take: a duplicated job waits for the claim
  // to end; if the sender dies, a later job sends again (with the same Message-ID: decision 052).
  const claimed = await app.db
    .update(notifications)
    .set({ emailDueAt: new Date(now.getTime() + EMAIL_SEND_LEASE_MS) })
    .where(
      and(
        eq(notifications.id, row.id),
        eq(notifications.emailStatus, 'pending'),
        or(isNull(notifications.emailDueAt), lte(notifications.emailDueAt, now)),
      ),
    )
    .returning({ id: notifications.id });
  if (claimed.length === 0) return 'gone';
  const [owner] = await app.db.select({ email: users.email }).from(users).where(eq(users.id, row.ownerId));
  if (!owner) return 'gone';
  try {
    await app.mailer.send(owner.email, {
      ...notificationMail({
        title: row.title,
        body: bodyAsOf(row, now, profile.time_zone),
        url: row.link ? new URL(row.link, app.config.publicUrl).href : null,
        eventLabel: NOTIFICATION_EVENT_LABELS[event],
        unsubscribeUrl: unsubscribeUrl(app, row.ownerId, event),
      }),
      messageId: notificationMessageId(app, row.id),
    });
  } catch (err) {
    // Due again at once: the caller queues the next try after its wait.
    await app.db.update(notifications).set({ emailDueAt: now }).where(eq(notifications.id, row.id));
    throw err;
  }
  await app.db.update(notifications).set({ emailStatus: 'sent' }).where(eq(notifications.id, row.id));
  return 'sent';
}
