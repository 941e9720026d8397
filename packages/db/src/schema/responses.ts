import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { chatrooms } from './chat.ts';

/**
 * A stored response of the Responses API (`POST /api/v1/responses` with `store` left on): the body
 * as it was sent, for `GET /api/v1/responses/{id}`, and the conversation a `previous_response_id`
 * continues. The conversation itself is a chatroom like any other; deleting it leaves the response
 * readable but not continuable.
 */
export const storedResponses = pgTable(
  'stored_responses',
  {
    /** `resp_` + the answer message's uuid without dashes. */
    id: text('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    chatroomId: integer('chatroom_id').references(() => chatrooms.id, { onDelete: 'set null' }),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stored_responses_application_idx').on(t.applicationId, t.createdAt),
    // Retention deletes a conversation's stored responses with it.
    index('stored_responses_chatroom_idx').on(t.chatroomId).where(sql`chatroom_id IS NOT NULL`),
  ],
);
