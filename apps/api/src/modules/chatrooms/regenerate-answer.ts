import type { TMessage } from '@cairn/contracts/chat';
import { messages } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { requestStop, takenAnswer, wakeAnswerWorkers } from './answer/answer-queue.ts';
import { findAnswer } from './find-message.ts';
import { publishMessageUpdated } from './publish-chat-event.ts';

/** Writes the answer again as a new run of the same message; a run still streaming is aborted. */
export async function regenerateAnswer(
  app: Ctx,
  ownerId: number,
  params: { appId: string; chatroomId: string; messageId: string },
): Promise<TMessage> {
  const found = await findAnswer(app, ownerId, params);
  const old = found.message;
  if (old.status === 'pending' || old.status === 'streaming') await requestStop(app, old.id, old.run);
  const replyTo = old.metadata.reply_to;
  const slot = app.answers.reserve();
  const updated = app.db
    .update(messages)
    .set({
      run: sql`${messages.run} + 1`,
      ...(slot ? takenAnswer() : { status: 'pending' as const }),
      message: '',
      feedback: null,
      // A regeneration answers the same request (the public API's instructions, temperature …).
      metadata: {
        ...(typeof replyTo === 'string' && { reply_to: replyTo }),
        ...(old.metadata.request !== undefined && { request: old.metadata.request }),
      },
      updatedAt: sql`now()`,
    })
    .where(eq(messages.id, old.id))
    .returning();
  const [row] = await updated.catch((error: unknown) => {
    slot?.release();
    throw error;
  });
  const announced = publishMessageUpdated(app, ownerId, found, row!);
  if (slot) slot.run({ application: found.application, chatroom: found.chatroom, answer: row!, announced });
  const message = await announced;
  if (!slot) await wakeAnswerWorkers(app);
  return message;
}
