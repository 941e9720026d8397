import { chatrooms } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findChatroom } from './find-chatroom.ts';

/** Deletes the chatroom and its messages; an answer still streaming stops when it finds its row gone. */
export async function deleteChatroom(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  appUuid: string,
  chatroomUuid: string,
) {
  const { chatroom } = await findChatroom(db, ownerId, appUuid, chatroomUuid);
  await db.delete(chatrooms).where(eq(chatrooms.id, chatroom.id));
}
