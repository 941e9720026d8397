import type { TNotificationProfile } from '@cairn/contracts/notifications';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { applications } from './applications.ts';
import { chatrooms } from './chat.ts';

/** An owner's notification profile (decision 049); no row means the defaults. */
export const notificationProfiles = pgTable('notification_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  profile: jsonb('profile').$type<TNotificationProfile>().notNull(),
  /** The end of the period of the last digest sent (or found with nothing to say). */
  digestSentAt: timestamp('digest_sent_at', { withTimezone: true }),
  /**
   * A digest being sent: the end of its period (its Message-ID), until it is recorded as sent. Kept
   * after a crash, so the same digest is sent again (decision 061).
   */
  digestClaimedAt: timestamp('digest_claimed_at', { withTimezone: true }),
  /** Until when its sender holds that claim: after it, the sender is taken for dead. */
  digestClaimedUntil: timestamp('digest_claimed_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const NOTIFICATION_EMAIL_STATUSES = ['none', 'pending', 'sent', 'skipped'] as const;

/**
 * One event for one owner: the bell's entry, and the state of its e-mail. The row is the truth for
 * the e-mail (`emailStatus`, due at `emailDueAt`); a pg-boss job only wakes a worker then.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    link: text('link'),
    applicationId: integer('application_id').references(() => applications.id, { onDelete: 'cascade' }),
    chatroomId: integer('chatroom_id').references(() => chatrooms.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }),
    emailStatus: text('email_status', { enum: NOTIFICATION_EMAIL_STATUSES }).notNull().default('none'),
    emailDueAt: timestamp('email_due_at', { withTimezone: true }),
    /** Sent through quiet hours (a handoff the owner marked urgent). */
    urgent: boolean('urgent').notNull().default(false),
    /**
     * A handoff's deadline: when the assistant takes the conversation back if nobody replied. What
     * is left of it is written into each channel's message when that message goes out.
     */
    replyBy: timestamp('reply_by', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_owner_idx').on(t.ownerId, t.id),
    index('notifications_unread_idx').on(t.ownerId).where(sql`read_at IS NULL`),
    // Deleting conversations (retention, a visitor's request) cascades here: without it, a scan per room.
    index('notifications_chatroom_idx').on(t.chatroomId).where(sql`chatroom_id IS NOT NULL`),
  ],
);

/** When the owner last opened a chatroom's messages: an e-mail about it is skipped after that. */
export const chatroomViews = pgTable(
  'chatroom_views',
  {
    chatroomId: integer('chatroom_id')
      .notNull()
      .references(() => chatrooms.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatroomId, t.userId] })],
);

/** A browser's Web Push subscription of an owner: where pushes are sent, and the keys to encrypt them. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);
