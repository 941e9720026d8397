import type { TNotificationChannel, TNotificationKind } from '@cairn/contracts/notifications';
import { notifications } from '@cairn/db/schema';
import type { Ctx } from '../../lib/ctx.ts';
import { queueNotificationEmail } from './deliver-email.ts';
import { queueNotificationPush } from './deliver-push.ts';
import { queueNotificationSlack } from './deliver-slack.ts';
import { getProfile } from './profile.ts';
import { serializeNotification } from './serialize-notification.ts';

export interface NewNotification {
  /** `test` ("send me a test") is only in the app: no profile names it. */
  event: TNotificationKind;
  title: string;
  body?: string;
  /** A web app path. */
  link?: string | null;
  application?: { id: number; uuid: string } | null;
  chatroom?: { id: number; uuid: string } | null;
  /** Never by e-mail, whatever the profile says (a widget whose "E-mail me" switch is off). */
  emailOff?: boolean;
  /**
   * A deadline the owner must meet (a handoff's wait): the e-mail goes out at once instead of after
   * the profile's delay, which would spend the owner's time to reply, and says what is left.
   */
  replyBy?: Date | null;
}

/**
 * Records an event for its owner as the profile asks (decision 067): in the bell (and live as a
 * `notification` socket event) with `in_app`, and queues the other channels it names (e-mail after
 * the profile's delay, or at once for an event with a deadline; push and Slack at once). The row
 * is also what those channels send from (and the e-mail's state), so an event told by e-mail but
 * not in the app is stored read, and the bell does not list it. An event with no channel is not
 * stored, unless the owner gets a digest. The row and its channels' jobs commit together (an
 * outbox: the jobs send from the row). Called after the change is committed; it never throws,
 * so the request that caused the event goes on whatever happens here.
 */
export async function recordNotification(app: Ctx, ownerId: number, input: NewNotification): Promise<void> {
  try {
    const profile = await getProfile(app.db, ownerId);
    const now = app.notifications.clock();
    const channels: TNotificationChannel[] =
      input.event === 'test' ? ['in_app'] : profile.events[input.event];
    const inApp = channels.includes('in_app');
    const email = !input.emailOff && channels.includes('email');
    const push = channels.includes('push');
    const slack = profile.slack !== null && channels.includes('slack');
    // The digest lists what happened from these rows, whatever channels each event has.
    if (!inApp && !email && !push && !slack && profile.digest === 'off') return;
    // The row and the jobs that send it commit together: a crash between them would lose them.
    const row = await app.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(notifications)
        .values({
          ownerId,
          event: input.event,
          title: input.title,
          body: input.body ?? '',
          link: input.link ?? null,
          applicationId: input.application?.id ?? null,
          chatroomId: input.chatroom?.id ?? null,
          readAt: inApp ? null : now,
          emailStatus: email ? 'pending' : 'none',
          emailDueAt: email
            ? new Date(now.getTime() + (input.replyBy ? 0 : profile.email_delay_minutes * 60_000))
            : null,
          urgent: input.event === 'handoff_requested' && profile.quiet_hours?.urgent_handoff === true,
          replyBy: input.replyBy ?? null,
          createdAt: now,
        })
        .returning();
      if (email) await queueNotificationEmail(app, inserted!.id, inserted!.emailDueAt!, { tx });
      if (push) await queueNotificationPush(app, inserted!.id, { tx });
      if (slack) await queueNotificationSlack(app, inserted!.id, { tx });
      return inserted!;
    });
    // After the commit: the socket's NOTIFY goes through the database too (on PGlite's one
    // connection it would wait for the transaction).
    if (inApp) {
      await app.realtime.publish(ownerId, {
        event: 'notification',
        data: serializeNotification(row, {
          applicationUuid: input.application?.uuid ?? null,
          chatroomUuid: input.chatroom?.uuid ?? null,
        }),
      });
    }
  } catch (err) {
    app.log.error({ err, event: input.event }, 'could not record a notification');
  }
}
