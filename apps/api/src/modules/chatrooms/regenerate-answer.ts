import type { TMessage } from '@cairn/contracts/chat';
import { messages } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { enqueueAnswer, requestStop } from '../../answer/enqueue-answer.ts';
import { findAnswer } from './find-message.ts';
import { publishMessageUpdated } from './publish-chat-event.ts';

/** Writes the answer again as a new run of the same message; a run still streaming is aborted. */
export async function regenerateAnswer(
  app: FastifyInstance,
  ownerId: number,
  params: { appId: string; chatroomId: string; messageId: string },
): Promise<TMessage> {
  const found = await findAnswer(app.db, ownerId, params);
  const old = found.message;
  if (old.status === 'pending' || old.status === 'streaming') await requestStop(app, old.id, old.run);
  const replyTo = old.metadata.reply_to;
  const [row] = await app.db
    .update(messages)
    .set({
      run: sql`${messages.run} + 1`,
      status: 'pending',
      message: '',
      feedback: null,
      metadata: typeof replyTo === 'string' ? { reply_to: replyTo } : {},
      updatedAt: sql`now()`,
    })
    .where(eq(messages.id, old.id))
    .returning();
  const message = await publishMessageUpdated(app, ownerId, found, row!);
  await enqueueAnswer(app, { messageId: row!.id, run: row!.run });
  return message;
}
