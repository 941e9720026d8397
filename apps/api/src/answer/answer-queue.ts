import { applications, chatrooms, messages } from '@cairn/db/schema';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ChatTurn } from '../models/types.ts';
import type { ApplicationRow } from '../modules/applications/serialize-application.ts';
import type { ChatroomRow, MessageRow } from '../modules/chatrooms/serialize-chat.ts';

/**
 * The answer queue is the `messages` table itself: an answer is `pending` until a process takes it
 * and `streaming` while one holds its lease. The process that stores a question takes its answer at
 * once when it has a free answer slot (no queue round trip before the first token); otherwise a
 * NOTIFY wakes the answer workers, which take pending answers with SKIP LOCKED. A lease that runs
 * out (the process died) ends the answer as interrupted, so a conversation never hangs.
 */
export const ANSWER_KICK_CHANNEL = 'cairn_answer_kick';
/** NOTIFY channel carrying `<messageId>:<run>` of an answer to abort, wherever it streams. */
export const ANSWER_STOP_CHANNEL = 'cairn_answer_stop';
/** How long a taken answer stays taken without its process renewing the lease. */
export const ANSWER_LEASE_SECONDS = 30;

export const INTERRUPTED_ERROR =
  'The answer was interrupted because the server stopped. Regenerate it to try again.';

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

export function wakeAnswerWorkers(app: FastifyInstance): Promise<void> {
  return app.database.notify(ANSWER_KICK_CHANNEL, '');
}

export function requestStop(app: FastifyInstance, messageId: number, run: number): Promise<void> {
  return app.database.notify(ANSWER_STOP_CHANNEL, `${messageId}:${run}`);
}

/** Takes up to `limit` pending answers (oldest first) for this process, with what answering needs. */
export async function takePendingAnswers(app: FastifyInstance, limit: number): Promise<AnswerTarget[]> {
  const oldestPending = app.db
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.status, 'pending'))
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

/** Extends the leases of the answers this process is streaming. */
export async function renewLeases(app: FastifyInstance, messageIds: number[]): Promise<void> {
  if (!messageIds.length) return;
  await app.db
    .update(messages)
    .set({ leaseUntil: leaseEnd() })
    .where(and(inArray(messages.id, messageIds), eq(messages.status, 'streaming')));
}

/** Ends answers whose process died (lease run out) as failed; returns them for their `updated` events. */
export async function failAbandonedAnswers(app: FastifyInstance) {
  const abandoned = await app.db
    .update(messages)
    .set({
      status: 'failed',
      leaseUntil: null,
      metadata: sql`${messages.metadata} || ${JSON.stringify({ error: INTERRUPTED_ERROR, error_kind: 'interrupted' })}::jsonb`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(messages.status, 'streaming'),
        or(isNull(messages.leaseUntil), lt(messages.leaseUntil, sql`now()`)),
      ),
    )
    .returning();
  if (!abandoned.length) return [];
  const rooms = await app.db
    .select({ chatroom: chatrooms, application: applications })
    .from(chatrooms)
    .innerJoin(applications, eq(applications.id, chatrooms.applicationId))
    .where(
      inArray(
        chatrooms.id,
        abandoned.map((m) => m.chatroomId),
      ),
    );
  const byRoom = new Map(rooms.map((r) => [r.chatroom.id, r]));
  return abandoned.flatMap((answer) => {
    const room = byRoom.get(answer.chatroomId);
    return room ? [{ ...room, answer }] : [];
  });
}
