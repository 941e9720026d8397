import { KNOWLEDGE_LIMITS, type TKnowledgeItem } from '@cairn/contracts/knowledge';
import { stripControlCharacters } from '@cairn/contracts/text';
import { chatrooms, feedbackDismissals, messages, unansweredQuestions } from '@cairn/db/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { addItems } from '../knowledge/add-items.ts';
import { titleOfQuestion } from '../knowledge/read-items.ts';

type Owner = { applicationId: number; applicationUuid: string; ownerId: number };

const groupOf = (applicationId: number, uuid: string) =>
  and(eq(unansweredQuestions.applicationId, applicationId), eq(unansweredQuestions.uuid, uuid));

/**
 * The owner answers an unanswered question: the question and the answer become a Q&A pair, so the
 * question is answered with the owner's words from then on; it is queued like any other item (its
 * ingestion status shows on the knowledge screen), and the group is marked answered in the same
 * transaction, so a double submit makes one item.
 */
export async function answerUnanswered(
  app: Ctx,
  owner: Owner,
  groupUuid: string,
  answer: string,
): Promise<TKnowledgeItem> {
  const [group] = await app.db
    .select()
    .from(unansweredQuestions)
    .where(
      and(
        groupOf(owner.applicationId, groupUuid),
        inArray(unansweredQuestions.status, ['open', 'dismissed']),
      ),
    );
  if (!group) throw notFound('Question not found.');
  const [item] = await addItems(
    app,
    owner,
    [
      {
        type: 'qa',
        title: titleOfQuestion(group.question),
        // Asked in a chat, it may be longer than a pair's question may be: its start is the question.
        question: stripControlCharacters(group.question)
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, KNOWLEDGE_LIMITS.qaQuestionChars),
        answer,
        alternatives: [],
      },
    ],
    async (tx, rows) => {
      const [claimed] = await tx
        .update(unansweredQuestions)
        .set({ status: 'answered', knowledgeItemId: rows[0]!.id, resolvedAt: sql`now()` })
        .where(
          and(
            eq(unansweredQuestions.id, group.id),
            inArray(unansweredQuestions.status, ['open', 'dismissed']),
          ),
        )
        .returning({ id: unansweredQuestions.id });
      // Answered meanwhile (another tab): throwing rolls the new item back.
      if (!claimed) throw notFound('Question not found.');
    },
  );
  return item!;
}

/** Hides a group of unanswered questions from the inbox, now and when it is asked again. */
export async function dismissUnanswered(
  { db }: Pick<Ctx, 'db'>,
  applicationId: number,
  groupUuid: string,
): Promise<void> {
  const [row] = await db
    .update(unansweredQuestions)
    .set({ status: 'dismissed', resolvedAt: sql`now()` })
    .where(and(groupOf(applicationId, groupUuid), inArray(unansweredQuestions.status, ['open', 'dismissed'])))
    .returning({ id: unansweredQuestions.id });
  if (!row) throw notFound('Question not found.');
}

/** Hides a 👎 answer from the inbox (its rating stays). */
export async function dismissFeedback(
  { db }: Pick<Ctx, 'db'>,
  applicationId: number,
  messageUuid: string,
): Promise<void> {
  const [message] = await db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(chatrooms, eq(chatrooms.id, messages.chatroomId))
    .where(
      and(
        eq(messages.uuid, messageUuid),
        eq(chatrooms.applicationId, applicationId),
        eq(messages.feedback, 'down'),
      ),
    );
  if (!message) throw notFound('Rated answer not found.');
  await db.insert(feedbackDismissals).values({ messageId: message.id }).onConflictDoNothing();
}
