import { ASSISTANT_SENDER } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { messages } from '@cairn/db/schema';
import { desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { StageEvent } from '../../lib/product-events.ts';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import { wakeAnswerWorkers } from './answer/answer-queue.ts';
import { type ChatroomRow, type MessageRow, serializeMessage } from './serialize-chat.ts';

/**
 * At most this many of the questions a person left unanswered are answered on hand-back, the latest
 * ones: a visitor who wrote ten lines while waiting gets answers to what they asked last, not ten.
 */
export const MAX_QUESTIONS_LEFT = 3;
/** How far back the conversation is read for them. */
const READ_BACK = 20;

/** The conversation's end user wrote it (not the assistant, not the owner replying to them). */
const fromEndUser = (m: MessageRow) =>
  m.senderIdentifier !== ASSISTANT_SENDER && m.metadata.send_to_user !== true;

/**
 * In the transaction that gives a chatroom back to the assistant (the owner's hand-back, or nobody
 * replying in time): stores the assistant's notice to the visitor, then a queued answer for each
 * question the visitor wrote after the last reply, oldest first (the person left them unanswered).
 * Stages the notice's `message.created`; returns the new messages, for `announceHandBack` once the
 * transaction committed.
 */
export async function handBackInTransaction(
  tx: Db,
  emit: StageEvent,
  application: ApplicationRow,
  room: ChatroomRow,
  notice: { message: string; metadata: Record<string, unknown> },
): Promise<MessageRow[]> {
  const recent = await tx
    .select()
    .from(messages)
    .where(eq(messages.chatroomId, room.id))
    .orderBy(desc(messages.id))
    .limit(READ_BACK);
  const end = recent.findIndex((m) => !fromEndUser(m));
  const left = recent
    .slice(0, end === -1 ? recent.length : end)
    .slice(0, MAX_QUESTIONS_LEFT)
    .reverse();
  const created = await tx
    .insert(messages)
    .values([
      { chatroomId: room.id, senderIdentifier: ASSISTANT_SENDER, ...notice },
      ...left.map((question) => ({
        chatroomId: room.id,
        senderIdentifier: ASSISTANT_SENDER,
        status: 'pending' as const,
        metadata: { reply_to: question.uuid },
      })),
    ])
    .returning();
  // The notice is a message in its own right; answers are recorded when they finish (answer-message.ts).
  emit('message.created', { application, chatroom: room, message: created[0]! });
  return created;
}

/** After the hand-back committed: the new messages are shown to the owner and the answer workers woken. */
export async function announceHandBack(
  app: Ctx,
  application: ApplicationRow,
  room: ChatroomRow,
  created: MessageRow[],
): Promise<void> {
  const base = { application_uuid: application.uuid, chatroom_uuid: room.uuid };
  for (const message of created) {
    await app.events.emit('chat.changed', {
      ownerId: application.ownerId,
      change: {
        kind: 'created',
        ...base,
        message: serializeMessage(message),
      },
    });
  }
  if (created.some((m) => m.status === 'pending')) await wakeAnswerWorkers(app);
}
