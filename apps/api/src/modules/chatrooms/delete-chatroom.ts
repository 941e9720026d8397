import type { Db } from '@cairn/db/client';
import { chatrooms } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import { findChatroom } from './find-chatroom.ts';

/** Deletes the chatroom and its messages; an answer still streaming stops when it finds its row gone. */
export async function deleteChatroom(db: Db, ownerId: number, appUuid: string, chatroomUuid: string) {
  const { chatroom } = await findChatroom(db, ownerId, appUuid, chatroomUuid);
  await db.delete(chatrooms).where(eq(chatrooms.id, chatroom.id));
}
