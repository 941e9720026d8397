import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { chatrooms, messages } from './chat.ts';
import { knowledgeItems } from './knowledge.ts';

export const UNANSWERED_STATUSES = ['open', 'answered', 'dismissed'] as const;

/**
 * A group of similar questions the knowledge did not cover (decision 048). A row is the group's
 * stable identity (its uuid is what the inbox acts on); `tokens` are the normalised words of the
 * first question, which later questions are compared with.
 */
export const unansweredQuestions = pgTable(
  'unanswered_questions',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    tokens: text('tokens').array().notNull(),
    status: text('status', { enum: UNANSWERED_STATUSES }).notNull().default('open'),
    /** The text item the owner's answer became. */
    knowledgeItemId: integer('knowledge_item_id').references(() => knowledgeItems.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [index('unanswered_questions_app_idx').on(t.applicationId, t.status)],
);

/**
 * One uncovered answer counted in a group: the answer message is unique, so a regenerated answer
 * is counted once, and deleting its chatroom removes it from the count.
 */
export const unansweredQuestionAsks = pgTable(
  'unanswered_question_asks',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => unansweredQuestions.id, { onDelete: 'cascade' }),
    answerId: integer('answer_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    chatroomId: integer('chatroom_id')
      .notNull()
      .references(() => chatrooms.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('unanswered_question_asks_answer_key').on(t.answerId),
    index('unanswered_question_asks_group_idx').on(t.groupId, t.askedAt),
    // Deleting conversations cascades here.
    index('unanswered_question_asks_chatroom_idx').on(t.chatroomId),
  ],
);

/** A 👎 answer the owner has dealt with: no longer listed in the inbox. */
export const feedbackDismissals = pgTable('feedback_dismissals', {
  messageId: integer('message_id')
    .primaryKey()
    .references(() => messages.id, { onDelete: 'cascade' }),
  dismissedAt: timestamp('dismissed_at', { withTimezone: true }).notNull().defaultNow(),
});
