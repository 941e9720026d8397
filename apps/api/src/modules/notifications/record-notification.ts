import type { TNotificationEvent } from '@cairn/contracts/notifications';
import { notifications } from '@cairn/db/schema';
import type { FastifyInstance } from 'fastify';
import { queueNotificationEmail } from './deliver-email.ts';
import { queueNotificationPush } from './deliver-push.ts';
import { queueNotificationSlack } from './deliver-slack.ts';
import { getProfile } from './profile.ts';
import { serializeNotification } from './serialize-notification.ts';

export interface NewNotification {
  event: TNotificationEvent;
  title: string;
  body?: string;
  /** A web app path. */
  link?: string | null;
  application?: { id: number; uuid: string } | null;
  chatroom?: { id: number; uuid: string } | null;
  /** Never by e-mail, whatever the profile says: something else already e-mails about it. */
  emailOff?: boolean;
  /** Only in the app (the in-app test). */
  inAppOnly?: boolean;
}

/**
 * Records an event for its owner: always in the bell (and live as a `notification` socket event),
 * and queues the other channels the profile asks for (e-mail after the profile's delay; push and
 * Slack at once). Called after the change is
 * committed; it never throws, so the request that caused the event goes on whatever happens here.
 */
export async function recordNotification(
  app: FastifyInstance,
  ownerId: number,
  input: NewNotification,
): Promise<void> {
  try {
    const profile = await getProfile(app.db, ownerId);
    const now = app.notifications.clock();
    const email = !input.emailOff && !input.inAppOnly && profile.events[input.event].includes('email');
    const [row] = await app.db
      .insert(notifications)
      .values({
        ownerId,
        event: input.event,
        title: input.title,
        body: input.body ?? '',
        link: input.link ?? null,
        applicationId: input.application?.id ?? null,
        chatroomId: input.chatroom?.id ?? null,
        emailStatus: email ? 'pending' : 'none',
        emailDueAt: email ? new Date(now.getTime() + profile.email_delay_minutes * 60_000) : null,
        urgent: input.event === 'handoff_requested' && profile.quiet_hours?.urgent_handoff === true,
        createdAt: now,
      })
      .returning();
    await app.realtime.publish(ownerId, {
      event: 'notification',
      data: serializeNotification(row!, {
        applicationUuid: input.application?.uuid ?? null,
        chatroomUuid: input.chatroom?.uuid ?? null,
      }),
    });
    if (email) await queueNotificationEmail(app, row!.id, row!.emailDueAt!);
    if (!input.inAppOnly && profile.events[input.event].includes('push'))
      await queueNotificationPush(app, row!.id);
    if (!input.inAppOnly && profile.slack && profile.events[input.event].includes('slack'))
      await queueNotificationSlack(app, row!.id);
  } catch (err) {
    app.log.error({ err, event: input.event }, 'could not record a notification');
  }
}
