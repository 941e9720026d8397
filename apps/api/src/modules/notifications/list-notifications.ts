import {
  NOTIFICATION_EVENTS,
  NOTIFICATIONS_PAGE,
  type TNotificationList,
} from '@cairn/contracts/notifications';
import type { Db } from '@cairn/db/client';
import { applications, chatrooms, notifications } from '@cairn/db/schema';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { getProfile } from './profile.ts';
import { serializeNotification } from './serialize-notification.ts';

/**
 * The kinds the bell lists: the events the owner's profile shows in the app, and "send me a test".
 * Read from the profile as it is now: an event taken out of the app leaves the bell with its past
 * entries (decision 067). Those recorded for another channel only were stored read.
 */
async function inAppKinds(db: Db, ownerId: number): Promise<string[]> {
  const profile = await getProfile(db, ownerId);
  return ['test', ...NOTIFICATION_EVENTS.filter((event) => profile.events[event].includes('in_app'))];
}

async function countUnread(db: Db, ownerId: number, kinds: string[]): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(
      and(
        eq(notifications.ownerId, ownerId),
        isNull(notifications.readAt),
        inArray(notifications.event, kinds),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The owner's latest notifications in the bell, newest first, with how many are unread. */
export async function listNotifications(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
): Promise<TNotificationList> {
  const kinds = await inAppKinds(db, ownerId);
  const rows = await db
    .select({ n: notifications, applicationUuid: applications.uuid, chatroomUuid: chatrooms.uuid })
    .from(notifications)
    .leftJoin(applications, eq(applications.id, notifications.applicationId))
    .leftJoin(chatrooms, eq(chatrooms.id, notifications.chatroomId))
    .where(and(eq(notifications.ownerId, ownerId), inArray(notifications.event, kinds)))
    .orderBy(desc(notifications.id))
    .limit(NOTIFICATIONS_PAGE);
  return {
    unread_count: await countUnread(db, ownerId, kinds),
    results: rows.map((r) =>
      serializeNotification(r.n, { applicationUuid: r.applicationUuid, chatroomUuid: r.chatroomUuid }),
    ),
  };
}

/** Marks the given notifications (only the owner's own; others are ignored) or all as read. */
export async function markRead(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  which: { uuids?: string[]; all?: true },
) {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.ownerId, ownerId),
        isNull(notifications.readAt),
        which.all ? undefined : inArray(notifications.uuid, which.uuids ?? []),
      ),
    );
  return { unread_count: await countUnread(db, ownerId, await inAppKinds(db, ownerId)) };
}
