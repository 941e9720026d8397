import { bigint, index, integer, pgTable, serial, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { timestamps, users } from './accounts.ts';
import { applications } from './applications.ts';
import { chatrooms } from './chat.ts';

/**
 * A chat integration (decision 047): a Slack app or a Telegram bot answering for one application.
 * Every secret is sealed with the secret box, bound to the row's uuid and its purpose. A Telegram
 * bot in polling mode is polled by one process at a time: the one holding `pollerLease` until
 * `pollerLeaseUntil`; `pollOffset` is the next update to ask for, so a restart repeats nothing.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['slack', 'telegram'] }).notNull(),
    botTokenCiphertext: text('bot_token_ciphertext').notNull(),
    /** Slack: the signing secret; Telegram: the webhook's `secret_token`. */
    signingSecretCiphertext: text('signing_secret_ciphertext'),
    /** Slack: the bot's user id (its own mentions are removed from questions); Telegram: the bot's id. */
    botUserId: text('bot_user_id').notNull(),
    botName: text('bot_name').notNull(),
    /** Telegram only: `webhook` or `polling`, and why. */
    mode: text('mode', { enum: ['webhook', 'polling'] }),
    modeReason: text('mode_reason'),
    status: text('status', { enum: ['connected', 'error'] })
      .notNull()
      .default('connected'),
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    pollOffset: bigint('poll_offset', { mode: 'number' }).notNull().default(0),
    pollerLease: uuid('poller_lease'),
    pollerLeaseUntil: timestamp('poller_lease_until', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('integrations_owner_idx').on(t.ownerId, t.createdAt)],
);

/**
 * Inbound events already accepted (Slack `event_id`, Telegram `update_id`): a retry of one of them
 * is acknowledged and dropped. Rows older than a day are pruned (Slack retries within an hour).
 */
export const integrationEvents = pgTable(
  'integration_events',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('integration_events_event_unique').on(t.integrationId, t.eventId),
    index('integration_events_created_idx').on(t.createdAt),
  ],
);

/** A Slack thread or Telegram chat and the chatroom that holds its conversation. */
export const integrationThreads = pgTable(
  'integration_threads',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** Slack: `{channel}:{thread_ts}`; Telegram: the chat id. */
    threadKey: text('thread_key').notNull(),
    chatroomId: integer('chatroom_id')
      .notNull()
      .references(() => chatrooms.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('integration_threads_key_unique').on(t.integrationId, t.threadKey),
    // Deleting conversations cascades here.
    index('integration_threads_chatroom_idx').on(t.chatroomId),
  ],
);
