import { WIDGET_REFUSAL_REASONS } from '@cairn/contracts/widget';
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
import { timestamps } from './accounts.ts';
import { applications } from './applications.ts';

/**
 * An application's website widget. `settings` holds the owner's appearance, limits and takeover
 * choices, validated by the contract's zod schemas on the way in and completed with defaults on
 * the way out; `enabled` and `allowedOrigins` are columns because every visitor call checks them.
 */
export const widgets = pgTable('widgets', {
  applicationId: integer('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  allowedOrigins: text('allowed_origins').array().notNull().default([]),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  ...timestamps,
});

/**
 * One row per accepted visitor message, counted for the per-visitor and per-address limits. The
 * address is stored as an HMAC (never in clear); rows older than a day are pruned.
 */
export const widgetUsage = pgTable(
  'widget_usage',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    visitorUuid: uuid('visitor_uuid').notNull(),
    ipHash: text('ip_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('widget_usage_visitor_idx').on(t.applicationId, t.visitorUuid, t.createdAt),
    index('widget_usage_ip_idx').on(t.applicationId, t.ipHash, t.createdAt),
  ],
);

/**
 * Sites whose pages asked for the widget and were refused, so the owner can see why it draws
 * nothing there (the site's developer only sees a console message). One row per origin, the
 * latest refusal; only the most recent few are kept per application.
 */
export const widgetRefusedOrigins = pgTable(
  'widget_refused_origins',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    reason: text('reason', { enum: WIDGET_REFUSAL_REASONS }).notNull(),
    lastRefusedAt: timestamp('last_refused_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.origin] })],
);
