import { CHATROOM_SOURCES } from '@cairn/contracts/chat';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './accounts.ts';
import { applications } from './applications.ts';

/** A conversation inside an application. */
export const chatrooms = pgTable(
  'chatrooms',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Where the conversation came from (web app, public API, widget …). */
    source: text('source', { enum: CHATROOM_SOURCES }).notNull().default('web'),
    /** `human` while the owner answers (takeover): the assistant then stays silent. */
    handledBy: text('handled_by', { enum: ['assistant', 'human'] })
      .notNull()
      .default('assistant'),
    /** Set while a visitor waits for a person. */
    waitingSince: timestamp('waiting_since', { withTimezone: true }),
    /** The widget visitor whose conversation this is (null for other sources). */
    visitorUuid: uuid('visitor_uuid'),
    /** The page a widget conversation started on. */
    startedOn: text('started_on'),
    /** Bumped by every new message: the chatroom list is ordered by it. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    // Keyset order of the conversation log and the sidebar: newest activity first, id breaks ties.
    index('chatrooms_app_activity_idx').on(t.applicationId, t.lastMessageAt, t.id),
    index('chatrooms_app_source_activity_idx').on(t.applicationId, t.source, t.lastMessageAt, t.id),
    // The sidebar's conversations a person waits in or answers: few, whatever the traffic.
    index('chatrooms_app_with_a_person_idx')
      .on(t.applicationId, t.lastMessageAt, t.id)
      .where(sql`waiting_since IS NOT NULL OR handled_by = 'human'`),
    index('chatrooms_visitor_idx').on(t.visitorUuid, t.lastMessageAt).where(sql`visitor_uuid IS NOT NULL`),
  ],
);

export const MESSAGE_STATUSES = ['pending', 'streaming', 'complete', 'stopped', 'failed'] as const;
export const MESSAGE_FEEDBACK = ['up', 'down'] as const;

/**
 * A message of a chatroom. Assistant answers are created as `pending` (queued) or `streaming` (taken
 * at once by the process that stored them) and end `complete`, `stopped` or `failed`; `run` counts
 * regenerations so a stale run cannot overwrite a new one. The open answers are the answer queue.
 */
export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    chatroomId: integer('chatroom_id')
      .notNull()
      .references(() => chatrooms.id, { onDelete: 'cascade' }),
    senderIdentifier: text('sender_identifier').notNull(),
    message: text('message').notNull().default(''),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull().default('complete'),
    run: integer('run').notNull().default(0),
    feedback: text('feedback', { enum: MESSAGE_FEEDBACK }),
    /** While `streaming`: the answering process renews this; once past, the answer is started again (decision 052). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('messages_chatroom_idx').on(t.chatroomId, t.id),
    index('messages_open_answers_idx').on(t.status, t.id).where(sql`status IN ('pending', 'streaming')`),
    // Bad answers are few: counted for the sidebar's "Needs attention" badge on every page.
    index('messages_bad_answers_idx').on(t.chatroomId).where(sql`feedback = 'down'`),
    // The conversation log's filters (rating up, not covered) probe these per chatroom.
    index('messages_good_answers_idx').on(t.chatroomId).where(sql`feedback = 'up'`),
    index('messages_not_covered_idx').on(t.chatroomId).where(sql`(metadata->>'not_covered') = 'true'`),
    // The log's full-text search, an expression index (no stored column every read would carry):
    // queries must say `to_tsvector('simple', message)`. `simple` (no stemming, no stop words):
    // messages are in every language, and a person searches the words they remember.
    index('messages_search_idx').using('gin', sql`to_tsvector('simple', ${t.message})`),
  ],
);
