import type { TChatroom, TMessage } from '@cairn/contracts/chat';
import type { chatrooms, messages } from '@cairn/db/schema';

export type ChatroomRow = typeof chatrooms.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export function serializeChatroom(row: ChatroomRow): TChatroom {
  return {
    uuid: row.uuid,
    name: row.name,
    source: row.source,
    handled_by: row.handledBy,
    waiting_since: row.waitingSince?.toISOString() ?? null,
    started_on: row.startedOn,
    created_at: row.createdAt.toISOString(),
    last_message_at: row.lastMessageAt.toISOString(),
  };
}

export function serializeMessage(row: MessageRow): TMessage {
  return {
    id: row.id,
    uuid: row.uuid,
    sender_identifier: row.senderIdentifier,
    message: row.message,
    metadata: row.metadata,
    status: row.status,
    run: row.run,
    feedback: row.feedback,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
