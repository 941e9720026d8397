import { bigserial, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Event bodies too large for a NOTIFY payload (8000 bytes) are parked here and sent by reference. */
export const eventPayloads = pgTable('event_payloads', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
