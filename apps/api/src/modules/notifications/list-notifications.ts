import { NOTIFICATIONS_PAGE, type TNotificationList } from '@cairn/contracts/notifications';
import type { Db } from '@cairn/db/client';
import { applications, chatrooms, notifications } from '@cairn/db/schema';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { serializeNotification } from './serialize-notification.ts';

export async function unreadCount(db: Db, ownerId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.ownerId, ownerId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** The owner's latest notifications, newest first, with how many are unread. */
export async function listNotifications(db: Db, ownerId: number): Promise<TNotificationList> {
  const rows = await db
    .select({ n: notifications, applicationUuid: applications.uuid, chatroomUuid: chatrooms.uuid })
    .from(notifications)
    .leftJoin(applications, eq(applications.id, notifications.applicationId))
    .leftJoin(chatrooms, eq(chatrooms.id, notifications.chatroomId))
    .where(eq(notifications.ownerId, ownerId))
    .orderBy(desc(notifications.id))
    .limit(NOTIFICATIONS_PAGE);
  return {
    unread_count: await unreadCount(db, ownerId),
    results: rows.map((r) =>
      serializeNotification(r.n, { applicationUuid: r.applicationUuid, chatroomUuid: r.chatroomUuid }),
    ),
  };
}

/** Marks the given notifications (only the owner's own; others are ignored) or all as read. */
export async function markRead(db: Db, ownerId: number, which: { uuids?: string[]; all?: true }) {
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
  return { unread_count: await unreadCount(db, ownerId) };
}
