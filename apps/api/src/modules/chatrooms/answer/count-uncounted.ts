import { chatrooms, messages, unansweredQuestionAsks } from '@cairn/db/schema';
import { and, asc, eq, gt, notExists, sql } from 'drizzle-orm';
import type { Ctx } from '../../../lib/ctx.ts';
import { recordAnswerOutcome } from '../../attention/record-unanswered.ts';
import { loadConversation } from './answer-message.ts';

/** How far back a starting process looks for answers left uncounted. */
export const UNCOUNTED_WITHIN_MS = 60 * 60 * 1000;

/**
 * Counts in the owner's inbox the uncovered answers of the last hour that were never counted: their
 * process stopped between the answer's final write and its grouping (kill -9, a power cut), or the
 * grouping failed. A group is never deleted on its own (answered and dismissed are states), so an
 * uncovered answer without an ask was not counted. Run when a process starts; an answer another
 * process counts meanwhile is not counted twice (an ask's answer is unique, checked under the
 * application's lock). Oldest first, as they were asked. Resolves with how many it counted.
 */
export async function countUncountedAnswers(app: Ctx): Promise<number> {
  const rows = await app.db
    .select({
      id: messages.id,
      run: messages.run,
      status: messages.status,
      metadata: messages.metadata,
      chatroomId: messages.chatroomId,
      applicationId: chatrooms.applicationId,
    })
    .from(messages)
    .innerJoin(chatrooms, eq(chatrooms.id, messages.chatroomId))
    .where(
      and(
        // The partial index of uncovered answers (messages_not_covered_idx) holds only these.
        sql`(${messages.metadata}->>'not_covered') = 'true'`,
        eq(messages.status, 'complete'),
        gt(messages.updatedAt, new Date(Date.now() - UNCOUNTED_WITHIN_MS)),
        notExists(
          app.db
            .select({ one: sql`1` })
            .from(unansweredQuestionAsks)
            .where(eq(unansweredQuestionAsks.answerId, messages.id)),
        ),
      ),
    )
    .orderBy(asc(messages.id));
  for (const row of rows) {
    const { question } = await loadConversation(app, row.chatroomId, row.id, row.metadata.reply_to);
    await recordAnswerOutcome(app.db, {
      applicationId: row.applicationId,
      chatroomId: row.chatroomId,
      answer: row,
      question,
    });
  }
  return rows.length;
}
