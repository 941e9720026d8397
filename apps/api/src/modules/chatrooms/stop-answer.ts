import type { TMessage } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { messages } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { requestStop } from './answer/answer-queue.ts';
import { findAnswer } from './find-message.ts';
import { publishMessageUpdated } from './publish-chat-event.ts';
import { serializeMessage } from './serialize-chat.ts';

/**
 * Stops an answer in progress: marks it `stopped` at once (so no client waits on a dead worker)
 * and tells whichever process streams it to abort; that process then stores the text it had, and
 * records the finished answer for the owner's webhooks. An answer stopped before any process took
 * it has no such process: it is recorded here.
 */
export async function stopAnswer(
  app: Ctx,
  ownerId: number,
  params: { appId: string; chatroomId: string; messageId: string },
): Promise<TMessage> {
  const found = await findAnswer(app, ownerId, params);
  const stop = (db: Db, status: 'pending' | 'streaming') =>
    db
      .update(messages)
      .set({ status: 'stopped', leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(messages.id, found.message.id), eq(messages.status, status)))
      .returning();
  // Two statements, so that which one matched says whether a process streams it (a take in
  // between makes the first miss and the second match).
  const untaken = await app.events.transaction(async (tx, emit) => {
    const [untaken] = await stop(tx, 'pending');
    if (untaken) emit('message.created', { ...found, message: untaken });
    return untaken;
  });
  if (untaken) return publishMessageUpdated(app, ownerId, found, untaken);
  const [row] = await stop(app.db, 'streaming');
  if (!row) return serializeMessage(found.message);
  await requestStop(app, row.id, row.run);
  return publishMessageUpdated(app, ownerId, found, row);
}
