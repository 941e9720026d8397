import type { Db } from '@cairn/db/client';
import { eqLiteral } from '@cairn/db/literal';
import { applications, chatrooms, messages } from '@cairn/db/schema';
import { and, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../../lib/ctx.ts';
import type { ChatTurn } from '../../../models/types.ts';
import type { ApplicationRow } from '../../applications/serialize-application.ts';
import type { ChatroomRow, MessageRow } from '../serialize-chat.ts';

/**
 * The answer queue is the `messages` table itself: an answer is `pending` until a process takes it
 * and `streaming` while one holds its lease. The process that stores a question takes its answer at
 * once when it has a free answer slot (no queue round trip before the first token); otherwise a
 * NOTIFY wakes the answer workers, which take pending answers with SKIP LOCKED. A process that stops
 * hands its unfinished answers back; a lease that runs out (the process died) puts the answer back
 * in the queue as a new run (decision 052), so a conversation never hangs and never loses an answer.
 */
export const ANSWER_KICK_CHANNEL = 'cairn_answer_kick';
/** NOTIFY channel carrying `<messageId>:<run>` of an answer to abort, wherever it streams. */
export const ANSWER_STOP_CHANNEL = 'cairn_answer_stop';
/**
 * How long a taken answer stays taken without its process renewing the lease: what a visitor waits,
 * at most, before another process starts the answer again after a crash.
 */
export const ANSWER_LEASE_SECONDS = 10;
/** How often a process renews its leases and looks for abandoned answers: a quarter of the lease. */
export const ANSWER_HEARTBEAT_MS = (ANSWER_LEASE_SECONDS * 1000) / 4;
/** Times an answer is started again after its process died, before it is given up as failed. */
export const MAX_ANSWER_RESUMES = 3;

export const INTERRUPTED_ERROR = `The answer was interrupted ${MAX_ANSWER_RESUMES + 1} times because its server stopped while writing it. Regenerate it to try again.`;

/**
 * What shapes one answer beyond the application's settings: the public API's request. Kept in the
 * answer's `metadata.request`, so whichever process takes the answer (and a regeneration) honours it.
 */
export interface AnswerRequest {
  /** Added to the application's instructions (never replacing them). */
  instructions?: string;
  temperature?: number;
  max_tokens?: number;
  /** The turns before the question when the chatroom does not hold them (sent with the request). */
  history?: ChatTurn[];
}

/** The answer request stored on an answer, checked: it is read back from a jsonb column. */
export function answerRequestOf(metadata: Record<string, unknown>): AnswerRequest {
  const r = metadata.request;
  if (!r || typeof r !== 'object') return {};
  const { instructions, temperature, max_tokens, history } = r as Record<string, unknown>;
  return {
    ...(typeof instructions === 'string' && { instructions }),
    ...(typeof temperature === 'number' && { temperature }),
    ...(typeof max_tokens === 'number' && { max_tokens }),
    ...(Array.isArray(history) && {
      history: history.filter(
        (t): t is ChatTurn =>
          (t?.role === 'user' || t?.role === 'assistant') && typeof t?.content === 'string',
      ),
    }),
  };
}

/** Everything answering needs, as the caller that took the answer already has it. */
export interface AnswerTarget {
  application: ApplicationRow;
  chatroom: ChatroomRow;
  /** The answer as taken: `streaming`, this run. */
  answer: MessageRow;
  /** The question, when the caller has it at hand (the search starts at once); otherwise it is read. */
  question?: string;
  /** The turns before the question, when the caller knows them (none in a new chatroom). */
  history?: ChatTurn[];
  /** Settles once the answer's own event is published: its deltas must not overtake it. */
  announced?: Promise<unknown>;
}

const leaseEnd = () => sql`now() + make_interval(secs => ${ANSWER_LEASE_SECONDS})`;

/** Column values that take an answer for this process. */
export const takenAnswer = () => ({ status: 'streaming', leaseUntil: leaseEnd() }) as const;

export function wakeAnswerWorkers(app: Ctx): Promise<void> {
  return app.database.notify(ANSWER_KICK_CHANNEL, '');
}

export function requestStop(app: Ctx, messageId: number, run: number): Promise<void> {
  return app.database.notify(ANSWER_STOP_CHANNEL, `${messageId}:${run}`);
}

/** Takes up to `limit` pending answers (oldest first) for this process, with what answering needs. */
export async function takePendingAnswers(app: Ctx, limit: number): Promise<AnswerTarget[]> {
  const oldestPending = app.db
    .select({ id: messages.id })
    .from(messages)
    .where(eqLiteral(messages.status, 'pending'))
    .orderBy(messages.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await app.db
    .update(messages)
    .set(takenAnswer())
    .where(inArray(messages.id, oldestPending))
    .returning({ id: messages.id });
  if (!rows.length) return [];
  return app.db
    .select({ answer: messages, chatroom: chatrooms, application: applications })
    .from(messages)
    .innerJoin(chatrooms, eq(chatrooms.id, messages.chatroomId))
    .innerJoin(applications, eq(applications.id, chatrooms.applicationId))
    .where(
      inArray(
        messages.id,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(messages.id);
}

/** One run of an answer: what a lease, a hand-back and a stop name. */
export interface AnswerRunKey {
  id: number;
  run: number;
}

const isRun = (keys: AnswerRunKey[]) =>
  or(...keys.map((k) => and(eq(messages.id, k.id), eq(messages.run, k.run))));

/**
 * Extends the leases of the runs this process is streaming; returns those it still holds (a run it
 * lost, given to another process after a stall, is aborted by the caller: its writes would be ignored).
 */
export async function renewLeases(app: Ctx, runs: AnswerRunKey[]): Promise<AnswerRunKey[]> {
  if (!runs.length) return [];
  return app.db
    .update(messages)
    .set({ leaseUntil: leaseEnd() })
    .where(and(isRun(runs), eq(messages.status, 'streaming')))
    .returning({ id: messages.id, run: messages.run });
}

/** An answer started again from its question: a new, empty run, queued; its question and request kept. */
const restartedAnswer = (resumes: SQL) =>
  ({
    run: sql`${messages.run} + 1`,
    status: 'pending',
    message: '',
    leaseUntil: null,
    metadata: sql`jsonb_strip_nulls(jsonb_build_object(
      'reply_to', ${messages.metadata}->'reply_to',
      'request', ${messages.metadata}->'request',
      'resumes', ${resumes}))`,
    updatedAt: sql`now()`,
  }) as const;

const resumesOf = sql`coalesce((${messages.metadata}->>'resumes')::int, 0)`;

/**
 * Puts back in the queue the runs a stopping process did not finish (graceful drain): each becomes a
 * new run of the same answer, `pending`, for any process to take. Not counted as a resume: the
 * answer did nothing wrong. Returns the rows, for their `updated` events.
 */
export async function handBackAnswers(app: Ctx, runs: AnswerRunKey[]) {
  if (!runs.length) return [];
  const rows = await app.db
    .update(messages)
    .set(restartedAnswer(sql`nullif(${resumesOf}, 0)`))
    .where(and(isRun(runs), eq(messages.status, 'streaming')))
    .returning();
  return withRooms(app.db, rows);
}

/**
 * Answers whose process died (lease run out; with `all`, every one still streaming: on PGlite at
 * start-up no other process can hold one) are started again as a new run, up to
 * `MAX_ANSWER_RESUMES` times, then failed with a reason. Returns both, for their events.
 */
export async function resumeAbandonedAnswers(app: Ctx, options: { all?: boolean } = {}) {
  const abandoned = and(
    eqLiteral(messages.status, 'streaming'),
    options.all ? undefined : or(isNull(messages.leaseUntil), lt(messages.leaseUntil, sql`now()`)),
  );
  // An answer that ends here is recorded (`message.created`: webhooks, analytics) with its end.
  const failed = await app.events.transaction(async (tx, emit) => {
    const rows = await tx
      .update(messages)
      .set({
        status: 'failed',
        leaseUntil: null,
        metadata: sql`${messages.metadata} || ${JSON.stringify({ error: INTERRUPTED_ERROR, error_kind: 'interrupted' })}::jsonb`,
        updatedAt: sql`now()`,
      })
      .where(and(abandoned, sql`${resumesOf} >= ${MAX_ANSWER_RESUMES}`))
      .returning();
    const ended = await withRooms(tx, rows);
    for (const { application, chatroom, answer } of ended)
      emit('message.created', { application, chatroom, message: answer });
    return ended;
  });
  const resumed = await app.db
    .update(messages)
    .set(restartedAnswer(sql`${resumesOf} + 1`))
    .where(and(abandoned, sql`${resumesOf} < ${MAX_ANSWER_RESUMES}`))
    .returning();
  return { failed, resumed: await withRooms(app.db, resumed) };
}

/** Answers with their chatroom and application, as events and webhooks need them. */
async function withRooms(db: Db, answers: MessageRow[]) {
  if (!answers.length) return [];
  const rooms = await db
    .select({ chatroom: chatrooms, application: applications })
    .from(chatrooms)
    .innerJoin(applications, eq(applications.id, chatrooms.applicationId))
    .where(
      inArray(
        chatrooms.id,
        answers.map((m) => m.chatroomId),
      ),
    );
  const byRoom = new Map(rooms.map((r) => [r.chatroom.id, r]));
  return answers.flatMap((answer) => {
    const room = byRoom.get(answer.chatroomId);
    return room ? [{ ...room, answer }] : [];
  });
}
