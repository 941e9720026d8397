import { ASSISTANT_SENDER } from '@cairn/contracts/chat';
import { messages } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { findChatroom } from './find-chatroom.ts';

/** An assistant answer of the caller's chatroom (stop, regenerate and feedback apply to answers only). */
export async function findAnswer(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  params: { appId: string; chatroomId: string; messageId: string },
) {
  const { chatroom, application } = await findChatroom(db, ownerId, params.appId, params.chatroomId);
  const [message] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.uuid, params.messageId), eq(messages.chatroomId, chatroom.id)));
  if (!message) throw notFound('Message not found.');
  if (message.senderIdentifier !== ASSISTANT_SENDER) {
    throw new AppError('invalid', 'Only answers of the assistant can be stopped, regenerated or rated.');
  }
  return { chatroom, application, message };
}
