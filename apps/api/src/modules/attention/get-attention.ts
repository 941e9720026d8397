import {
  ATTENTION_EXCERPT_CHARS,
  ATTENTION_LIST_LIMIT,
  type TAttention,
  type TAttentionCount,
  type TNegativeFeedback,
  type TUnansweredQuestion,
  type TWaitingConversation,
} from '@cairn/contracts/attention';
import { ASSISTANT_SENDER } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { eqLiteral } from '@cairn/db/literal';
import { preparedPerDb } from '@cairn/db/prepared';
import {
  applications,
  chatrooms,
  feedbackDismissals,
  messages,
  unansweredQuestionAsks,
  unansweredQuestions,
} from '@cairn/db/schema';
import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  max,
  type Placeholder,
  sql,
} from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

/** Chatrooms listed per unanswered question. */
const CHATROOMS_PER_QUESTION = 10;

const iso = (value: Date | string) => new Date(value).toISOString();

/** An answer as one line of plain text for the inbox: no markdown marks, no citation numbers. */
export function plainExcerpt(markdown: string, max = ATTENTION_EXCERPT_CHARS): string {
  const plain = markdown
    .replace(/\[\d+\]/g, '')
    .replace(/^\s*(?:#{1,6}|[-*+]|\d+\.|>)\s+/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max).trimEnd()}…` : plain;
}

/**
 * 👎 answers of the application that the owner has not dismissed, for the badge's count and the
 * list alike (over messages joined to their chatroom and, left, to their dismissal).
 */
const openBadAnswers = (applicationId: number | Placeholder) =>
  and(
    eq(chatrooms.applicationId, applicationId),
    eqLiteral(messages.feedback, 'down'),
    isNull(feedbackDismissals.messageId),
  );

/** The three sections of an application's inbox (the caller has checked ownership). */
export async function getAttention({ db }: Pick<Ctx, 'db'>, applicationId: number): Promise<TAttention> {
  const [waiting, unanswered, negative_feedback] = await Promise.all([
    listWaiting(db, applicationId),
    listUnanswered(db, applicationId),
    listNegativeFeedback(db, applicationId),
  ]);
  return { waiting, unanswered, negative_feedback };
}

/**
 * The counts behind the sidebar's badge, asked on every page of an application: three counts in one
 * statement built once (decision 106), the bad answers through their partial index
 * (`messages_bad_answers_idx`), never the lists.
 */
const attentionCounts = preparedPerDb((db) => {
  const applicationId = sql.placeholder('applicationId');
  const waiting = db
    .select({ n: count() })
    .from(chatrooms)
    .where(and(eq(chatrooms.applicationId, applicationId), isNotNull(chatrooms.waitingSince)));
  const unanswered = db
    .select({ n: countDistinct(unansweredQuestions.id) })
    .from(unansweredQuestions)
    .innerJoin(unansweredQuestionAsks, eq(unansweredQuestionAsks.groupId, unansweredQuestions.id))
    .where(and(eq(unansweredQuestions.applicationId, applicationId), eq(unansweredQuestions.status, 'open')));
  const negative = db
    .select({ n: count() })
    .from(messages)
    .innerJoin(chatrooms, eq(chatrooms.id, messages.chatroomId))
    .leftJoin(feedbackDismissals, eq(feedbackDismissals.messageId, messages.id))
    .where(openBadAnswers(applicationId));
  return db
    .select({
      waiting: sql<number>`(${waiting})`.mapWith(Number),
      unanswered: sql<number>`(${unanswered})`.mapWith(Number),
      negative_feedback: sql<number>`(${negative})`.mapWith(Number),
    })
    .from(applications)
    .where(eq(applications.id, applicationId))
    .prepare('attention_counts');
});

export async function countAttention(
  { db }: Pick<Ctx, 'db'>,
  applicationId: number,
): Promise<TAttentionCount> {
  const [counts] = await attentionCounts(db).execute({ applicationId });
  return counts ?? { waiting: 0, unanswered: 0, negative_feedback: 0 };
}

async function listWaiting(db: Db, applicationId: number): Promise<TWaitingConversation[]> {
  const rows = await db
    .select()
    .from(chatrooms)
    .where(and(eq(chatrooms.applicationId, applicationId), isNotNull(chatrooms.waitingSince)))
    .orderBy(asc(chatrooms.waitingSince))
    .limit(ATTENTION_LIST_LIMIT);
  return rows.map((r) => ({
    uuid: r.uuid,
    name: r.name,
    source: r.source,
    waiting_since: r.waitingSince!.toISOString(),
    started_on: r.startedOn,
  }));
}

async function listUnanswered(db: Db, applicationId: number): Promise<TUnansweredQuestion[]> {
  const lastAsked = max(unansweredQuestionAsks.askedAt);
  const groups = await db
    .select({
      id: unansweredQuestions.id,
      uuid: unansweredQuestions.uuid,
      question: unansweredQuestions.question,
      count: sql<number>`count(*)::int`.mapWith(Number),
      lastAsked,
    })
    .from(unansweredQuestions)
    .innerJoin(unansweredQuestionAsks, eq(unansweredQuestionAsks.groupId, unansweredQuestions.id))
    .where(and(eq(unansweredQuestions.applicationId, applicationId), eq(unansweredQuestions.status, 'open')))
    .groupBy(unansweredQuestions.id)
    .orderBy(desc(lastAsked))
    .limit(ATTENTION_LIST_LIMIT);
  if (groups.length === 0) return [];
  const rooms = await db
    .select({
      groupId: unansweredQuestionAsks.groupId,
      uuid: chatrooms.uuid,
      name: chatrooms.name,
      lastAsked: max(unansweredQuestionAsks.askedAt),
    })
    .from(unansweredQuestionAsks)
    .innerJoin(chatrooms, eq(chatrooms.id, unansweredQuestionAsks.chatroomId))
    .where(
      inArray(
        unansweredQuestionAsks.groupId,
        groups.map((g) => g.id),
      ),
    )
    .groupBy(unansweredQuestionAsks.groupId, chatrooms.id)
    .orderBy(desc(max(unansweredQuestionAsks.askedAt)));
  return groups.map((g) => ({
    uuid: g.uuid,
    question: g.question,
    count: g.count,
    last_asked_at: iso(g.lastAsked!),
    chatrooms: rooms
      .filter((r) => r.groupId === g.id)
      .slice(0, CHATROOMS_PER_QUESTION)
      .map((r) => ({ uuid: r.uuid, name: r.name, asked_at: iso(r.lastAsked!) })),
  }));
}

async function listNegativeFeedback(db: Db, applicationId: number): Promise<TNegativeFeedback[]> {
  // The question an answer replies to: the one it names (`reply_to`), else the last message before
  // it that is neither the assistant's nor the owner's reply to the visitor.
  const question = sql<string | null>`coalesce(
    (SELECT q.message FROM messages q
      WHERE q.chatroom_id = ${messages.chatroomId} AND q.uuid::text = ${messages.metadata} ->> 'reply_to'),
    (SELECT q.message FROM messages q
      WHERE q.chatroom_id = ${messages.chatroomId} AND q.id < ${messages.id}
        AND q.sender_identifier <> ${ASSISTANT_SENDER}
        AND coalesce(q.metadata ->> 'send_to_user', '') <> 'true'
      ORDER BY q.id DESC LIMIT 1))`;
  const rows = await db
    .select({
      uuid: messages.uuid,
      // Room for the marks the excerpt drops.
      answer: sql<string>`left(${messages.message}, ${ATTENTION_EXCERPT_CHARS * 4})`,
      createdAt: messages.createdAt,
      question,
      chatroomUuid: chatrooms.uuid,
      chatroomName: chatrooms.name,
    })
    .from(messages)
    .innerJoin(chatrooms, eq(chatrooms.id, messages.chatroomId))
    .leftJoin(feedbackDismissals, eq(feedbackDismissals.messageId, messages.id))
    .where(openBadAnswers(applicationId))
    .orderBy(desc(messages.id))
    .limit(ATTENTION_LIST_LIMIT);
  return rows.map((r) => ({
    message_uuid: r.uuid,
    question: r.question ?? '',
    answer_excerpt: plainExcerpt(r.answer),
    answered_at: r.createdAt.toISOString(),
    chatroom: { uuid: r.chatroomUuid, name: r.chatroomName },
  }));
}
