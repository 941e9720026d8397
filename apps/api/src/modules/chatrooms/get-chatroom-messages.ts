import type { TChatroomMessages } from '@cairn/contracts/chat';
import { preparedPerDb } from '@cairn/db/prepared';
import { messages } from '@cairn/db/schema';
import { asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findChatroom } from './find-chatroom.ts';
import { serializeChatroom, serializeMessage } from './serialize-chat.ts';

// The messages view asks for them.
const messagesOf = preparedPerDb((db) =>
  db
    .select()
    .from(messages)
    .where(eq(messages.chatroomId, sql.placeholder('chatroomId')))
    .orderBy(asc(messages.id))
    .prepare('chatroom_messages'),
);

/**
 * Every message of the chatroom, oldest first; answers mid-stream carry the text stored so far.
 * Who handles the chatroom comes with them, so a view opening it does not depend on an older list.
 * With the chatroom's id, for what follows the opening (it was seen).
 */
export async function getChatroomMessages(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  appUuid: string,
  chatroomUuid: string,
): Promise<{ chatroomId: number; view: TChatroomMessages }> {
  const { chatroom } = await findChatroom(db, ownerId, appUuid, chatroomUuid);
  const rows = await messagesOf(db).execute({ chatroomId: chatroom.id });
  const { uuid, name, source, handled_by, waiting_since, started_on } = serializeChatroom(chatroom);
  return {
    chatroomId: chatroom.id,
    view: { uuid, name, source, handled_by, waiting_since, started_on, messages: rows.map(serializeMessage) },
  };
}
