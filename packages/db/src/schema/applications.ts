import { STRICTNESS_LEVELS, type TLlmModel } from '@cairn/contracts/applications';
import { index, integer, jsonb, pgTable, real, serial, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps, users } from './accounts.ts';

export const applications = pgTable(
  'applications',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Ordered; the first model of each type is the selected one (spec §3). */
    llmModels: jsonb('llm_models').$type<TLlmModel[]>().notNull().default([]),
    /** Extra instructions given to the text model before every answer. */
    instructions: text('instructions').notNull().default(''),
    temperature: real('temperature').notNull().default(0.2),
    /** How strictly answers stay within the knowledge (see `ZStrictness` in contracts). */
    strictness: text('strictness', { enum: STRICTNESS_LEVELS }).notNull().default('strict'),
    /** The owner's words when the knowledge does not cover a question; empty: the default, in the question's language. */
    noAnswerMessage: text('no_answer_message').notNull().default(''),
    /** Conversations idle longer than this many days are deleted by a daily job; null keeps them forever. */
    conversationRetentionDays: integer('conversation_retention_days'),
    ...timestamps,
  },
  (t) => [index('applications_owner_idx').on(t.ownerId, t.createdAt)],
);
