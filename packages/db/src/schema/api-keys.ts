import { index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './accounts.ts';
import { applications } from './applications.ts';

/**
 * An application's API key for the OpenAI-compatible `/api/v1`. Only the SHA-256 of the key is kept;
 * `prefix` and `lastFour` let the owner recognise it. Deleting the application deletes its keys.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    lastFour: text('last_four').notNull(),
    requestsPerMinute: integer('requests_per_minute').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('api_keys_application_idx').on(t.applicationId, t.createdAt)],
);
