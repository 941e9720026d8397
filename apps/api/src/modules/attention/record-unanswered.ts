import type { Db } from '@cairn/db/client';
import { applications, unansweredQuestionAsks, unansweredQuestions } from '@cairn/db/schema';
import { and, arrayOverlaps, desc, eq, ne, param, sql } from 'drizzle-orm';
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
  await groupInTurn(db, target.applicationId, {
    answerId: answer.id,
    chatroomId: target.chatroomId,
    question,
    tokens: questionTokens(question),
  });
}

/** An uncovered answer's question, to be counted in a group. */
interface Ask {
  answerId: number;
  chatroomId: number;
  question: string;
  tokens: string[];
}

interface Waiting {
  ask: Ask;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Per database handle and application: the asks that arrived while a grouping runs, counted next. */
const queues = new WeakMap<Db, Map<number, Waiting[]>>();

/**
 * Counts `ask` in its turn: one grouping at a time per application in this process, and the asks
 * that arrive meanwhile are grouped next, together, under one lock of the application. Each answer
 * used to take the lock for itself: at 100 answers a second (two in three of them uncovered) on
 * PostgreSQL, each waited about half a second for it, holding its answer slot and a pooled
 * connection all along (decision 104). Resolves once the ask is counted (or failed to be).
 */
function groupInTurn(db: Db, applicationId: number, ask: Ask): Promise<void> {
  const queue = queues.get(db) ?? new Map<number, Waiting[]>();
  queues.set(db, queue);
  return new Promise<void>((resolve, reject) => {
    const waiting: Waiting = { ask, resolve, reject };
    const running = queue.get(applicationId);
    if (running) {
      running.push(waiting);
      return;
    }
    queue.set(applicationId, [waiting]);
    void (async () => {
      for (let batch = queue.get(applicationId)!; batch.length; batch = queue.get(applicationId)!) {
        queue.set(applicationId, []);
        await groupBatch(db, applicationId, batch);
      }
      queue.delete(applicationId);
    })();
  });
}

/** Groups a batch in one transaction; when that fails, each ask on its own, so one bad ask loses no other. */
async function groupBatch(db: Db, applicationId: number, batch: Waiting[]): Promise<void> {
  try {
    await groupAsks(
      db,
      applicationId,
      batch.map((w) => w.ask),
    );
    for (const w of batch) w.resolve();
  } catch (error) {
    if (batch.length === 1) return batch[0]!.reject(error);
    for (const w of batch) await groupAsks(db, applicationId, [w.ask]).then(w.resolve, w.reject);
  }
}

async function groupAsks(db: Db, applicationId: number, asks: Ask[]): Promise<void> {
  await db.transaction(async (tx) => {
    // One grouping at a time per application (across processes too), so two similar questions at
    // once make one group. NO KEY UPDATE: inserts referencing the application (new chatrooms …)
    // are not held up.
    await tx
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.id, applicationId))
      .for('no key update');
    // In order: each ask sees the groups the ones before it started.
    for (const { answerId, chatroomId, question, tokens } of asks) {
      // Of the most recent groups, only those sharing a word with the question: the others'
      // Jaccard is 0, below SIMILAR_AT (a question without words is the same as another without
      // words only). The same choice as comparing every recent group, without reading all their words.
      const recent = tx
        .select({ id: unansweredQuestions.id, tokens: unansweredQuestions.tokens })
        .from(unansweredQuestions)
        .where(
          and(
            eq(unansweredQuestions.applicationId, applicationId),
            ne(unansweredQuestions.status, 'answered'),
          ),
        )
        .orderBy(desc(unansweredQuestions.id))
        .limit(CANDIDATE_GROUPS)
        .as('recent');
      const candidates = await tx
        .select()
        .from(recent)
        .where(tokens.length > 0 ? arrayOverlaps(recent.tokens, tokens) : eq(recent.tokens, tokens))
        // Newest first, as before: of equally similar groups the newest is chosen.
        .orderBy(desc(recent.id));
      const groupId = mostSimilar(tokens, candidates)?.id ?? null;
      // The group (when none is similar) and the ask in one statement. An answer already counted
      // (the unique answer_id) adds neither: checked here, under the lock, not in a read before it.
      await tx.execute(sql`
        WITH created AS (
          INSERT INTO ${unansweredQuestions} (application_id, question, tokens)
          SELECT ${applicationId}, ${question}, ${param(tokens, unansweredQuestions.tokens)}
          WHERE ${groupId}::int IS NULL
            AND NOT EXISTS (SELECT 1 FROM ${unansweredQuestionAsks} WHERE answer_id = ${answerId})
          RETURNING id
        )
        INSERT INTO ${unansweredQuestionAsks} (group_id, answer_id, chatroom_id, question)
        SELECT coalesce(${groupId}::int, (SELECT id FROM created)), ${answerId}, ${chatroomId}, ${question}
        WHERE ${groupId}::int IS NOT NULL OR EXISTS (SELECT 1 FROM created)
        ON CONFLICT (answer_id) DO NOTHING`);
    }
  });
}
