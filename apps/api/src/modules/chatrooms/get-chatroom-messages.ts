import type { TChatroomMessages } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { messages } from '@cairn/db/schema';
import { asc, eq } from 'drizzle-orm';
import { findChatroom } from './find-chatroom.ts';
import { serializeMessage } from './serialize-chat.ts';

/** Every message of the chatroom, oldest first; answers mid-stream carry the text stored so far. */
export async function getChatroomMessages(
  db: Db,
  ownerId: number,
  appUuid: string,
  chatroomUuid: string,
): Promise<TChatroomMessages> {
  const { chatroom } = await findChatroom(db, ownerId, appUuid, chatroomUuid);
  const rows = await db
    .select()
    .from(messages)
    .where(eq(messages.chatroomId, chatroom.id))
    .orderBy(asc(messages.id));
  return { uuid: chatroom.uuid, name: chatroom.name, messages: rows.map(serializeMessage) };
}
