import type { Db } from '@cairn/db/client';
import { applications, unansweredQuestionAsks, unansweredQuestions } from '@cairn/db/schema';
import { and, desc, eq, ne } from 'drizzle-orm';
import { mostSimilar, questionTokens } from './question-similarity.ts';

/** Groups compared with a new question: the most recent ones (older groups rarely matter). */
const CANDIDATE_GROUPS = 2000;
/** Questions are stored (and shown) up to this length. */
const QUESTION_CHARS = 2000;

export interface StoredAnswer {
  id: number;
  run: number;
  status: string;
  metadata: Record<string, unknown>;
}

/**
 * Counts a stored answer in the inbox when it said the knowledge does not cover its question: it
 * joins the most similar open or dismissed group (a dismissed group stays hidden however often it
 * is asked again), or starts a new one. Answered groups are not joined: an uncovered question after
 * the owner's answer means that answer did not cover it, which the owner should see anew.
 */
export async function recordAnswerOutcome(
  db: Db,
  target: { applicationId: number; chatroomId: number; answer: StoredAnswer; question: string },
): Promise<void> {
  const { answer } = target;
  const uncovered = answer.status === 'complete' && answer.metadata.not_covered === true;
  if (!uncovered) {
    // A regenerated answer that now cites something is no longer unanswered.
    if (answer.run > 0)
      await db.delete(unansweredQuestionAsks).where(eq(unansweredQuestionAsks.answerId, answer.id));
    return;
  }
  const question = target.question.trim().slice(0, QUESTION_CHARS);
  if (!question) return;
  const tokens = questionTokens(question);
  await db.transaction(async (tx) => {
    // One grouping at a time per application, so two similar questions at once make one group.
    // NO KEY UPDATE: inserts referencing the application (new chatrooms …) are not held up.
    await tx
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.id, target.applicationId))
      .for('no key update');
    const [counted] = await tx
      .select({ id: unansweredQuestionAsks.id })
      .from(unansweredQuestionAsks)
      .where(eq(unansweredQuestionAsks.answerId, answer.id));
    if (counted) return;
    const candidates = await tx
      .select({ id: unansweredQuestions.id, tokens: unansweredQuestions.tokens })
      .from(unansweredQuestions)
      .where(
        and(
          eq(unansweredQuestions.applicationId, target.applicationId),
          ne(unansweredQuestions.status, 'answered'),
        ),
      )
      .orderBy(desc(unansweredQuestions.id))
      .limit(CANDIDATE_GROUPS);
    let groupId = mostSimilar(tokens, candidates)?.id;
    if (groupId === undefined) {
      const [created] = await tx
        .insert(unansweredQuestions)
        .values({ applicationId: target.applicationId, question, tokens })
        .returning({ id: unansweredQuestions.id });
      groupId = created!.id;
    }
    await tx
      .insert(unansweredQuestionAsks)
      .values({ groupId, answerId: answer.id, chatroomId: target.chatroomId, question });
  });
}
