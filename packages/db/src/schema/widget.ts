import { WIDGET_REFUSAL_REASONS } from '@cairn/contracts/widget';
import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
 * Accepted visitor messages per hour, per visitor (`key` = the visitor's uuid) and per address
 * (`key` = an HMAC of it, never the address in clear), counted for the widget's limits. A limit
 * check reads at most 25 rows per key whatever the traffic (one address behind a NAT sends many
 * messages a day); rows older than the day's window are pruned.
 */
export const widgetUsageHours = pgTable(
  'widget_usage_hours',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    keyKind: text('key_kind', { enum: ['visitor', 'ip'] }).notNull(),
    key: text('key').notNull(),
    /** The hour's start (UTC). */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    messages: integer('messages').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.keyKind, t.key, t.hour] })],
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
