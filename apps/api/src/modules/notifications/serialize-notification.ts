import type { TNotification, TNotificationKind } from '@cairn/contracts/notifications';
import type { notifications } from '@cairn/db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

export function serializeNotification(
  row: NotificationRow,
  refs: { applicationUuid: string | null; chatroomUuid: string | null },
): TNotification {
  return {
    uuid: row.uuid,
    event: row.event as TNotificationKind,
    title: row.title,
    body: row.body,
    link: row.link,
    application_uuid: refs.applicationUuid,
    chatroom_uuid: refs.chatroomUuid,
    read: row.readAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}
