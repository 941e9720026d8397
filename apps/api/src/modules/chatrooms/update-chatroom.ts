import type { TChatroom, ZUpdateChatroomRequest } from '@cairn/contracts/chat';
import { HANDED_BACK_NOTICE } from '@cairn/contracts/conversation-notices';
import { chatrooms } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Ctx } from '../../lib/ctx.ts';
import { findChatroom } from './find-chatroom.ts';
import { announceHandBack, handBackInTransaction } from './hand-back.ts';
import { serializeChatroom } from './serialize-chat.ts';

/**
 * Renames a chatroom and/or says who answers in it. Taking over (`human`) or handing back
 * (`assistant`) both end a visitor's wait: someone has decided. Handing back a conversation a
 * person handled tells the visitor the assistant is back and answers what they asked meanwhile
 * that the person left unanswered (hand-back.ts).
 */
export async function updateChatroom(
  app: Ctx,
  ownerId: number,
  appUuid: string,
  chatroomUuid: string,
  input: z.output<typeof ZUpdateChatroomRequest>,
): Promise<TChatroom> {
  const { chatroom, application } = await findChatroom(app.db, ownerId, appUuid, chatroomUuid);
  const { row, created } = await app.events.transaction(async (tx, emit) => {
    const [before] = await tx.select().from(chatrooms).where(eq(chatrooms.id, chatroom.id)).for('update');
    const [row] = await tx
      .update(chatrooms)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.handled_by !== undefined && { handledBy: input.handled_by, waitingSince: null }),
        updatedAt: sql`now()`,
      })
      .where(eq(chatrooms.id, chatroom.id))
      .returning();
    const handedBack = before?.handledBy === 'human' && row!.handledBy === 'assistant';
    const created = handedBack
      ? await handBackInTransaction(tx, emit, application, row!, {
          message: HANDED_BACK_NOTICE,
          metadata: { handed_back: true },
        })
      : [];
    return { row: row!, created };
  });
  const serialized = serializeChatroom(row);
  await app.events.emit('chat.changed', {
    ownerId: ownerId,
    change: {
      kind: 'chatroom',
      application_uuid: appUuid,
      chatroom_uuid: chatroomUuid,
      chatroom: serialized,
      visitor_uuid: row.visitorUuid ?? undefined,
    },
  });
  if (created.length) await announceHandBack(app, application, row, created);
  return serialized;
}
