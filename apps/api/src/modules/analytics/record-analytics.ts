import {
  ASSISTANT_SENDER,
  isVisitorSender,
  type TAnswerMetadata,
  type TFeedback,
} from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import {
  analyticsAnswers,
  analyticsCitations,
  analyticsDays,
  analyticsHumanReplies,
  analyticsQuestions,
  analyticsVisitors,
} from '@cairn/db/schema';
import { type SQLWrapper, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { questionTokens } from '../attention/question-similarity.ts';
import { smallTalkOf } from '../chatrooms/answer/small-talk.ts';
import type { ChatroomRow, MessageRow } from '../chatrooms/serialize-chat.ts';
import { localDate, ownerTimeZone } from '../notifications/owner-time-zone.ts';

/**
 * The analytics subscriber (decision 066): each product event adds to the daily rollups of
 * `analytics.ts`, on the day the event happened in the owner's time zone. Counting is a courtesy to
 * the owner: a failed write is logged and the chat goes on.
 */
type Counter =
  | 'conversations'
  | 'messages'
  | 'ratedUp'
  | 'ratedDown'
  | 'notCovered'
  | 'handoffsRequested'
  | 'handoffsAnswered';
interface Where {
  application: { ownerId: number };
  chatroom: ChatroomRow;
}
/** Questions are stored (and shown) up to this length, as in the inbox. */
const QUESTION_CHARS = 2000;

/** Subscribes the counters to the product's events; each one logs its failure and goes on. */
export function subscribeAnalytics(app: Ctx) {
  app.events.onDurable('conversation.created', (where) => countConversation(app, where));
  app.events.onDurable('message.created', (where) => countMessage(app, where, where.message));
  app.events.onDurable('message.rated', (where) => countRating(app, where, where.message, where.previous));
  app.events.onDurable('handoff.requested', (where) => countHandoffRequested(app, where));
  app.events.onDurable('handoff.answered', (where) =>
    countHumanReply(app, where, where.reply, where.waitingSince),
  );
}

async function recording(app: Ctx, what: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    app.log.warn({ err, what }, 'could not count an event in the analytics');
  }
}

async function dayOf(app: Ctx, ownerId: number, at: Date): Promise<string> {
  return localDate(at, await ownerTimeZone(app.db, ownerId));
}

/**
 * Adds to a day's counters (`by` maybe negative); never below zero, so a rating counted before
 * analytics existed cannot go negative. Several counters are one upsert: one statement, one row.
 */
function bump(db: Db, applicationId: number, day: string, by: Partial<Record<Counter, number>>) {
  const counters = Object.entries(by) as Array<[Counter, number]>;
  return db
    .insert(analyticsDays)
    .values({
      applicationId,
      day,
      ...Object.fromEntries(counters.map(([counter, n]) => [counter, Math.max(n, 0)])),
    })
    .onConflictDoUpdate({
      target: [analyticsDays.applicationId, analyticsDays.day],
      set: Object.fromEntries(
        counters.map(([counter, n]) => [counter, sql`greatest(${analyticsDays[counter]} + ${n}, 0)`]),
      ),
    });
}

/**
 * Runs an event's writes as one statement (data-modifying CTEs): as atomic as a transaction, without
 * its BEGIN and COMMIT. On PGlite every statement is several round trips into the WebAssembly on the
 * one connection the chat waits for (decision 090). The writes must touch different rows.
 */
async function writeTogether(db: Db, writes: SQLWrapper[]): Promise<void> {
  if (writes.length === 0) return;
  if (writes.length === 1) {
    await db.execute(writes[0]!.getSQL());
    return;
  }
  const ctes = writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write.getSQL()})`);
  await db.execute(sql`WITH ${sql.join(ctes, sql`, `)} SELECT 1`);
}

/** `conversation.created`: counted on the day it started, the date the log's from/to filter. */
export function countConversation(app: Ctx, { application, chatroom }: Where) {
  return recording(app, 'conversation', async () => {
    const day = await dayOf(app, application.ownerId, chatroom.createdAt);
    await bump(app.db, chatroom.applicationId, day, { conversations: 1 });
  });
}

/**
 * `message.created`: a question, an owner's reply or a notice, or an answer that reached its final
 * status. A message counts once (a regenerated answer is the same message); every finished run of an
 * answer counts as an answer given: its first token, its tokens (spent again), whether it was
 * covered and what it cited.
 */
function countMessage(app: Ctx, { application, chatroom }: Where, row: MessageRow) {
  return recording(app, 'message', async () => {
    const applicationId = chatroom.applicationId;
    const day = await dayOf(app, application.ownerId, row.createdAt);
    const counters: Partial<Record<Counter, number>> = row.run === 0 ? { messages: 1 } : {};
    const writes =
      row.senderIdentifier === ASSISTANT_SENDER
        ? answerWrites(app.db, applicationId, day, row, counters)
        : questionWrites(app.db, applicationId, day, row);
    if (Object.keys(counters).length) writes.unshift(bump(app.db, applicationId, day, counters));
    await writeTogether(app.db, writes);
  });
}

function questionWrites(db: Db, applicationId: number, day: string, row: MessageRow): SQLWrapper[] {
  const writes: SQLWrapper[] = [];
  if (isVisitorSender(row.senderIdentifier)) {
    writes.push(
      db
        .insert(analyticsVisitors)
        .values({ applicationId, day, visitor: row.senderIdentifier })
        .onConflictDoNothing(),
    );
  }
  // The owner's reply to a visitor is no question to the assistant.
  if (row.metadata.send_to_user === true) return writes;
  const question = row.message.trim().slice(0, QUESTION_CHARS);
  // "hi" and "thanks" are answered as small talk, not from the knowledge: no top question.
  if (!question || smallTalkOf(question)) return writes;
  writes.push(
    db.insert(analyticsQuestions).values({ applicationId, day, question, tokens: questionTokens(question) }),
  );
  return writes;
}

/** An answer's rows; its day counters go into `counters` (the caller's one upsert of the day). */
function answerWrites(
  db: Db,
  applicationId: number,
  day: string,
  row: MessageRow,
  counters: Partial<Record<Counter, number>>,
): SQLWrapper[] {
  const metadata = row.metadata as TAnswerMetadata;
  // Notices (a hand-back's message) are no answers: only an answer names its model.
  if (!metadata.model) return [];
  const builtin = metadata.model.provider === 'builtin';
  const writes: SQLWrapper[] = [
    db.insert(analyticsAnswers).values({
      applicationId,
      day,
      firstTokenMs: metadata.first_token_ms ?? null,
      modelUuid: builtin ? null : metadata.model.uuid,
      modelName: metadata.model.name,
      inputTokens: metadata.usage?.input_tokens ?? 0,
      outputTokens: metadata.usage?.output_tokens ?? 0,
    }),
  ];
  // The same rule as the inbox's unanswered questions (record-unanswered.ts).
  if (row.status === 'complete' && metadata.not_covered === true) counters.notCovered = 1;
  // An item cited by several passages of one answer is cited once by it.
  const items = new Map((metadata.sources ?? []).map((s) => [s.item_uuid, s.item_title]));
  if (items.size === 0) return writes;
  writes.push(
    db
      .insert(analyticsCitations)
      .values([...items].map(([itemUuid, title]) => ({ applicationId, day, itemUuid, title, citations: 1 })))
      .onConflictDoUpdate({
        target: [analyticsCitations.applicationId, analyticsCitations.day, analyticsCitations.itemUuid],
        set: { citations: sql`${analyticsCitations.citations} + 1`, title: sql`excluded.title` },
      }),
  );
  return writes;
}

/**
 * A rating set, changed or cleared: the old one is taken back and the new one added, both on the
 * day of the answer (the day the log lists it under).
 */
function countRating(
  app: Ctx,
  { application, chatroom }: Where,
  answer: MessageRow,
  previous: TFeedback | null,
) {
  if (previous === answer.feedback) return Promise.resolve();
  return recording(app, 'rating', async () => {
    const day = await dayOf(app, application.ownerId, answer.createdAt);
    const counter = (feedback: TFeedback): Counter => (feedback === 'up' ? 'ratedUp' : 'ratedDown');
    // Up and down are different counters: taking one back and adding the other is one upsert.
    const by: Partial<Record<Counter, number>> = {};
    if (previous) by[counter(previous)] = -1;
    if (answer.feedback) by[counter(answer.feedback)] = 1;
    if (Object.keys(by).length) await bump(app.db, chatroom.applicationId, day, by);
  });
}

/** `handoff.requested`: counted on the day the visitor asked. */
function countHandoffRequested(app: Ctx, { application, chatroom }: Where) {
  return recording(app, 'handoff requested', async () => {
    const day = await dayOf(app, application.ownerId, chatroom.waitingSince ?? new Date());
    await bump(app.db, chatroom.applicationId, day, { handoffsRequested: 1 });
  });
}

/**
 * The owner's first reply to a visitor who waited for a person (`waitingSince` as it was before the
 * reply): a handoff answered, and how long the visitor waited, on the day of the reply.
 */
function countHumanReply(app: Ctx, { application, chatroom }: Where, reply: MessageRow, waitingSince: Date) {
  return recording(app, 'human reply', async () => {
    const day = await dayOf(app, application.ownerId, reply.createdAt);
    const waitMs = Math.max(0, reply.createdAt.getTime() - waitingSince.getTime());
    await writeTogether(app.db, [
      bump(app.db, chatroom.applicationId, day, { handoffsAnswered: 1 }),
      app.db.insert(analyticsHumanReplies).values({ applicationId: chatroom.applicationId, day, waitMs }),
    ]);
  });
}
