import type { TChatroom, ZUpdateChatroomRequest } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { chatrooms } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { findChatroom } from './find-chatroom.ts';
import { serializeChatroom } from './serialize-chat.ts';

/**
 * Renames a chatroom and/or says who answers in it. Taking over (`human`) or handing back
 * (`assistant`) both end a visitor's wait: someone has decided.
 */
export async function updateChatroom(
  db: Db,
  ownerId: number,
  appUuid: string,
  chatroomUuid: string,
  input: z.output<typeof ZUpdateChatroomRequest>,
): Promise<TChatroom> {
  const { chatroom } = await findChatroom(db, ownerId, appUuid, chatroomUuid);
  const [row] = await db
    .update(chatrooms)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.handled_by !== undefined && { handledBy: input.handled_by, waitingSince: null }),
      updatedAt: sql`now()`,
    })
    .where(eq(chatrooms.id, chatroom.id))
    .returning();
  return serializeChatroom(row!);
}
