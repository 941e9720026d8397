import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed sign-ins per (account, client address), for growing delays instead of a lock (decision 057).
 * `account` is the e-mail as typed (normalised), whether or not an account has it.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    account: text('account').notNull(),
    address: text('address').notNull(),
    failures: integer('failures').notNull(),
    /** The next attempt of this pair is refused before this time. */
    retryAt: timestamp('retry_at', { withTimezone: true }).notNull(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.address] })],
);
