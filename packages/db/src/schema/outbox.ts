import { bigserial, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';

/**
 * The product events' outbox (decision 085): the durable events of one operation, in the order it
 * emitted them, written in the operation's own transaction and deleted once delivered.
 */
export const productOutbox = pgTable('product_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  events: jsonb('events').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
