import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, serial, text, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/**
 * Analytics are kept as daily rollups written by subscribers of the product's events, never by
 * scanning messages, and they have no link to chatrooms: deleting conversations (retention, a
 * visitor's request) leaves what was already counted. `day` is the date in the owner's time zone
 * (their notification profile's `time_zone`) when the event happened.
 */
export const analyticsDays = pgTable(
  'analytics_days',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    conversations: integer('conversations').notNull().default(0),
    messages: integer('messages').notNull().default(0),
    ratedUp: integer('rated_up').notNull().default(0),
    ratedDown: integer('rated_down').notNull().default(0),
    notCovered: integer('not_covered').notNull().default(0),
    handoffsRequested: integer('handoffs_requested').notNull().default(0),
    handoffsAnswered: integer('handoffs_answered').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.day] })],
);

/** Who talked to the application on a day (a widget visitor's uuid, an API caller's or chat user's id). */
export const analyticsVisitors = pgTable(
  'analytics_visitors',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    visitor: text('visitor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.day, t.visitor] })],
);

/** One finished answer: its first-token time and the tokens it spent, per model. */
export const analyticsAnswers = pgTable(
  'analytics_answers',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    firstTokenMs: integer('first_token_ms'),
    /** The provider model's uuid (null for the built-in answerer) and name as it was then. */
    modelUuid: uuid('model_uuid'),
    modelName: text('model_name').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
  },
  (t) => [index('analytics_answers_app_day_idx').on(t.applicationId, t.day)],
);

/** How long a visitor who asked for a person waited for the owner's first reply. */
export const analyticsHumanReplies = pgTable(
  'analytics_human_replies',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    waitMs: integer('wait_ms').notNull(),
  },
  (t) => [index('analytics_human_replies_app_day_idx').on(t.applicationId, t.day)],
);

/** A question asked, with the normalised words the inbox groups similar questions by. */
export const analyticsQuestions = pgTable(
  'analytics_questions',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    question: text('question').notNull(),
    tokens: text('tokens').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [index('analytics_questions_app_day_idx').on(t.applicationId, t.day)],
);

/** How often a knowledge item was cited on a day; the title as it was, so a deleted item still reads. */
export const analyticsCitations = pgTable(
  'analytics_citations',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    itemUuid: uuid('item_uuid').notNull(),
    title: text('title').notNull(),
    citations: integer('citations').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.day, t.itemUuid] })],
);
