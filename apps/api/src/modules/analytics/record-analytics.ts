import {
  ASSISTANT_SENDER,
  isVisitorSender,
  type TAnswerMetadata,
  type TFeedback,
} from '@cairn/contracts/chat';
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
/** A day's counters, in the order of `day_row`'s values $3–$9. */
const COUNTERS = [
  'conversations',
  'messages',
  'ratedUp',
  'ratedDown',
  'notCovered',
  'handoffsRequested',
  'handoffsAnswered',
] as const;
type Counter = (typeof COUNTERS)[number];
type Counters = Partial<Record<Counter, number>>;
interface Where {
  application: { ownerId: number };
  chatroom: ChatroomRow;
}
/** Questions are stored (and shown) up to this length, as in the inbox. */
const QUESTION_CHARS = 2000;

/**
 * Each event's writes are one statement of data-modifying CTEs: as atomic as a transaction, without
 * its BEGIN and COMMIT (on PGlite every statement is several round trips into the WebAssembly on
 * the one connection the chat waits for, decision 090). Their texts are fixed, so each is prepared
 * once and no query is built per event (decision 115); a write an event does not need is skipped
 * by its own condition. The writes of one statement touch different rows.
 *
 * `day_row` adds to a day's counters ($3–$9, in `COUNTERS` order; most are 0) when $10 says one
 * changes, never below zero, so a rating counted before analytics existed cannot go negative.
 * $1 is the application, $2 the day.
 */
const DAY_ROW = `day_row AS (
  INSERT INTO analytics_days AS d (application_id, day, conversations, messages, rated_up, rated_down,
    not_covered, handoffs_requested, handoffs_answered)
  SELECT $1, $2::date, greatest($3::int, 0), greatest($4::int, 0), greatest($5::int, 0), greatest($6::int, 0),
    greatest($7::int, 0), greatest($8::int, 0), greatest($9::int, 0)
  WHERE $10::boolean
  ON CONFLICT (application_id, day) DO UPDATE SET
    conversations = greatest(d.conversations + $3, 0),
    messages = greatest(d.messages + $4, 0),
    rated_up = greatest(d.rated_up + $5, 0),
    rated_down = greatest(d.rated_down + $6, 0),
    not_covered = greatest(d.not_covered + $7, 0),
    handoffs_requested = greatest(d.handoffs_requested + $8, 0),
    handoffs_answered = greatest(d.handoffs_answered + $9, 0)
)`;

const BUMP = `WITH ${DAY_ROW} SELECT 1`;

/** A question: $11 the visitor who asked (null for none), $12 the question (null when it counts as none), $13 its words. */
const QUESTION = `WITH ${DAY_ROW},
visitor_row AS (
  INSERT INTO analytics_visitors (application_id, day, visitor)
  SELECT $1, $2::date, $11::text WHERE $11::text IS NOT NULL
  ON CONFLICT DO NOTHING
),
question_row AS (
  INSERT INTO analytics_questions (application_id, day, question, tokens)
  SELECT $1, $2::date, $12::text, $13::text[] WHERE $12::text IS NOT NULL
)
SELECT 1`;

/**
 * A finished run of an answer: $11 its model's name (null for a notice, which is no answer), $12
 * its first token, $13 the provider model (null for the built-in answerer), $14/$15 its tokens,
 * $16/$17 the items it cited and their titles (an item cited by several passages of one answer is
 * cited once by it).
 */
const ANSWER = `WITH ${DAY_ROW},
answer_row AS (
  INSERT INTO analytics_answers (application_id, day, first_token_ms, model_uuid, model_name, input_tokens, output_tokens)
  SELECT $1, $2::date, $12::int, $13::uuid, $11::text, $14::int, $15::int WHERE $11::text IS NOT NULL
),
cited AS (
  INSERT INTO analytics_citations AS c (application_id, day, item_uuid, title, citations)
  SELECT $1, $2::date, item, title, 1 FROM unnest($16::uuid[], $17::text[]) AS cited(item, title)
  ON CONFLICT (application_id, day, item_uuid) DO UPDATE SET citations = c.citations + 1, title = excluded.title
)
SELECT 1`;

/** The owner's first reply to a visitor waiting for a person: $11 how long they waited. */
const HUMAN_REPLY = `WITH ${DAY_ROW},
reply_row AS (INSERT INTO analytics_human_replies (application_id, day, wait_ms) SELECT $1, $2::date, $11::int)
SELECT 1`;

/** The statement's first ten values: the application, the day and its counters. */
function dayValues(applicationId: number, day: string, by: Counters): unknown[] {
  const counts = COUNTERS.map((counter) => by[counter] ?? 0);
  return [applicationId, day, ...counts, counts.some((n) => n !== 0)];
}

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

async function bump(app: Ctx, applicationId: number, day: string, by: Counters): Promise<void> {
  await app.database.query(BUMP, dayValues(applicationId, day, by));
}

/** `conversation.created`: counted on the day it started, the date the log's from/to filter. */
export function countConversation(app: Ctx, { application, chatroom }: Where) {
  return recording(app, 'conversation', async () => {
    const day = await dayOf(app, application.ownerId, chatroom.createdAt);
    await bump(app, chatroom.applicationId, day, { conversations: 1 });
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
    const counters: Counters = row.run === 0 ? { messages: 1 } : {};
    if (row.senderIdentifier === ASSISTANT_SENDER) {
      await app.database.query(ANSWER, answerValues(applicationId, day, row, counters));
    } else {
      await app.database.query(QUESTION, [
        ...dayValues(applicationId, day, counters),
        ...questionValues(row),
      ]);
    }
  });
}

/** The visitor who asked, and the question as the top questions count it (none for small talk). */
function questionValues(row: MessageRow): unknown[] {
  const visitor = isVisitorSender(row.senderIdentifier) ? row.senderIdentifier : null;
  const question = row.message.trim().slice(0, QUESTION_CHARS);
  // The owner's reply to a visitor is no question to the assistant; "hi" and "thanks" are answered
  // as small talk, not from the knowledge: no top question.
  const counted = row.metadata.send_to_user !== true && question && !smallTalkOf(question) ? question : null;
  return [visitor, counted, counted ? questionTokens(counted) : []];
}

function answerValues(applicationId: number, day: string, row: MessageRow, counters: Counters): unknown[] {
  const metadata = row.metadata as TAnswerMetadata;
  // Notices (a hand-back's message) are no answers: only an answer names its model.
  if (!metadata.model) return [...dayValues(applicationId, day, counters), null, null, null, 0, 0, [], []];
  // The same rule as the inbox's unanswered questions (record-unanswered.ts).
  if (row.status === 'complete' && metadata.not_covered === true) counters.notCovered = 1;
  const items = new Map((metadata.sources ?? []).map((s) => [s.item_uuid, s.item_title]));
  return [
    ...dayValues(applicationId, day, counters),
    metadata.model.name,
    metadata.first_token_ms ?? null,
    metadata.model.provider === 'builtin' ? null : metadata.model.uuid,
    metadata.usage?.input_tokens ?? 0,
    metadata.usage?.output_tokens ?? 0,
    [...items.keys()],
    [...items.values()],
  ];
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
    const by: Counters = {};
    if (previous) by[counter(previous)] = -1;
    if (answer.feedback) by[counter(answer.feedback)] = 1;
    await bump(app, chatroom.applicationId, day, by);
  });
}

/** `handoff.requested`: counted on the day the visitor asked. */
function countHandoffRequested(app: Ctx, { application, chatroom }: Where) {
  return recording(app, 'handoff requested', async () => {
    const day = await dayOf(app, application.ownerId, chatroom.waitingSince ?? new Date());
    await bump(app, chatroom.applicationId, day, { handoffsRequested: 1 });
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
    await app.database.query(HUMAN_REPLY, [
      ...dayValues(chatroom.applicationId, day, { handoffsAnswered: 1 }),
      waitMs,
    ]);
  });
}
