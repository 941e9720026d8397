import type { TChatroomMessages } from '@cairn/contracts/chat';
import { messages } from '@cairn/db/schema';
import { asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findChatroom } from './find-chatroom.ts';
import { serializeChatroom, serializeMessage } from './serialize-chat.ts';

/**
 * Every message of the chatroom, oldest first; answers mid-stream carry the text stored so far.
 * Who handles the chatroom comes with them, so a view opening it does not depend on an older list.
 */
export async function getChatroomMessages(
  { db }: Pick<Ctx, 'db'>,
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
  const { uuid, name, source, handled_by, waiting_since, started_on } = serializeChatroom(chatroom);
  return { uuid, name, source, handled_by, waiting_since, started_on, messages: rows.map(serializeMessage) };
}
