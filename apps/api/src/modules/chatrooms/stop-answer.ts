import type { TMessage } from '@cairn/contracts/chat';
import { messages } from '@cairn/db/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { requestStop } from '../../answer/answer-queue.ts';
import { findAnswer } from './find-message.ts';
import { publishMessageUpdated } from './publish-chat-event.ts';
import { serializeMessage } from './serialize-chat.ts';

/**
 * Stops an answer in progress: marks it `stopped` at once (so no client waits on a dead worker)
 * and tells whichever process streams it to abort; that process then stores the text it had.
 */
export async function stopAnswer(
  app: FastifyInstance,
  ownerId: number,
  params: { appId: string; chatroomId: string; messageId: string },
): Promise<TMessage> {
  const found = await findAnswer(app.db, ownerId, params);
  const [row] = await app.db
    .update(messages)
    .set({ status: 'stopped', leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(messages.id, found.message.id), inArray(messages.status, ['pending', 'streaming'])))
    .returning();
  if (!row) return serializeMessage(found.message);
  await requestStop(app, row.id, row.run);
  return publishMessageUpdated(app, ownerId, found, row);
}
