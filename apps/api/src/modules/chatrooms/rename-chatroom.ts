import type { TChatroom } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { chatrooms } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import { findChatroom } from './find-chatroom.ts';
import { serializeChatroom } from './serialize-chat.ts';

export async function renameChatroom(
  db: Db,
  ownerId: number,
  appUuid: string,
  chatroomUuid: string,
  name: string,
): Promise<TChatroom> {
  const { chatroom } = await findChatroom(db, ownerId, appUuid, chatroomUuid);
  const [row] = await db
    .update(chatrooms)
    .set({ name, updatedAt: sql`now()` })
    .where(eq(chatrooms.id, chatroom.id))
    .returning();
  return serializeChatroom(row!);
}
