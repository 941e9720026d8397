import { NOTIFICATION_EVENT_LABELS, type TNotificationEvent } from '@cairn/contracts/notifications';
import { chatroomViews, notifications, users } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notificationMail } from './notification-mail.ts';
import { getProfile } from './profile.ts';
import { quietHoursEnd } from './quiet-hours.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

export const EMAIL_QUEUE = 'notification-email';
export interface EmailJob {
  notificationId: number;
}

/**
 * Wakes a worker when the e-mail is due. The row holds the truth (status, due time); a job that
 * fires early or twice only re-reads it.
 */
export async function queueNotificationEmail(app: FastifyInstance, notificationId: number, dueAt: Date) {
  const seconds = Math.max(0, Math.ceil((dueAt.getTime() - app.notifications.clock().getTime()) / 1000));
  await app.jobs.send<EmailJob>(EMAIL_QUEUE, { notificationId }, { startAfter: seconds, retryLimit: 5 });
}

export type EmailOutcome = 'sent' | 'waiting' | 'held' | 'skipped' | 'gone';

/**
 * Sends one notification's e-mail if it is still wanted: not before its due time, not if the owner
 * has opened the conversation since the event (seen in the app: nothing left to tell), not if the
 * event's e-mail was turned off meanwhile, and not during quiet hours (held until they end) unless
 * it is an urgent handoff.
 */
export async function deliverNotificationEmail(
  app: FastifyInstance,
  notificationId: number,
): Promise<EmailOutcome> {
  const now = app.notifications.clock();
  const [row] = await app.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, notificationId), eq(notifications.emailStatus, 'pending')));
  if (!row) return 'gone';
  if (row.emailDueAt && row.emailDueAt > now) {
    await queueNotificationEmail(app, row.id, row.emailDueAt);
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
      await queueNotificationEmail(app, row.id, end);
      return 'held';
    }
  }
  // Claimed before sending, so a duplicated job cannot send twice; put back if sending fails.
  const claimed = await app.db
    .update(notifications)
    .set({ emailStatus: 'sent' })
    .where(and(eq(notifications.id, row.id), eq(notifications.emailStatus, 'pending')))
    .returning({ id: notifications.id });
  if (claimed.length === 0) return 'gone';
  const [owner] = await app.db.select({ email: users.email }).from(users).where(eq(users.id, row.ownerId));
  if (!owner) return 'gone';
  try {
    await app.mailer.send(
      owner.email,
      notificationMail({
        title: row.title,
        body: row.body,
        url: row.link ? new URL(row.link, app.config.publicUrl).href : null,
        eventLabel: NOTIFICATION_EVENT_LABELS[event],
        unsubscribeUrl: unsubscribeUrl(app, row.ownerId, event),
      }),
    );
  } catch (err) {
    await app.db.update(notifications).set({ emailStatus: 'pending' }).where(eq(notifications.id, row.id));
    throw err;
  }
  return 'sent';
}
