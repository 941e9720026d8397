import { ASSISTANT_SENDER, SENDER_PREFIX } from '@cairn/contracts/chat';
import type { TConversationFilters } from '@cairn/contracts/conversations';
import { fieldError } from '../../lib/app-error.ts';

/** Positional parameters of one raw SQL statement: `add` returns the placeholder of the value. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * SQL true for a visitor's message (`isVisitorSender` in contracts/chat.ts): neither the
 * assistant's nor the owner's (`reg_…`).
 */
export const VISITOR_SENDER_SQL = `m.sender_identifier <> '${ASSISTANT_SENDER}' AND left(m.sender_identifier, ${SENDER_PREFIX.length + 1}) <> '${SENDER_PREFIX}_'`;

/**
 * The `WHERE` of the log's chatrooms (alias `c`) for an application and the filters (decision
 * 065). Each probe of messages is written as its partial or expression index says, so that index
 * answers it: `feedback = 'up'|'down'`, `(metadata->>'not_covered') = 'true'`,
 * `to_tsvector('simple', message)`.
 */
export function conversationWhere(
  params: SqlParams,
  applicationId: number,
  filters: TConversationFilters,
  timeZone: string,
): string {
  const where = [`c.application_id = ${params.add(applicationId)}`];
  const messageExists = (condition: string) =>
    `EXISTS (SELECT 1 FROM messages m WHERE m.chatroom_id = c.id AND ${condition})`;

  if (filters.source?.length) where.push(`c.source = ANY(${params.add(filters.source)}::text[])`);
  // A day is a day in the owner's time zone: `to` includes its whole day.
  if (filters.from)
    where.push(
      `c.created_at >= (${params.add(filters.from)}::date)::timestamp AT TIME ZONE ${params.add(timeZone)}`,
    );
  if (filters.to)
    where.push(
      `c.created_at < (${params.add(filters.to)}::date + 1)::timestamp AT TIME ZONE ${params.add(timeZone)}`,
    );
  if (filters.status === 'waiting') where.push('c.waiting_since IS NOT NULL');
  if (filters.status === 'human') where.push(`c.handled_by = 'human'`);
  if (filters.status === 'assistant') where.push(`c.handled_by = 'assistant' AND c.waiting_since IS NULL`);
  if (filters.rating === 'up') where.push(messageExists(`m.feedback = 'up'`));
  if (filters.rating === 'down') where.push(messageExists(`m.feedback = 'down'`));
  if (filters.rating === 'none')
    where.push(`NOT ${messageExists(`m.feedback = 'up'`)} AND NOT ${messageExists(`m.feedback = 'down'`)}`);
  if (filters.not_covered) where.push(messageExists(`(m.metadata->>'not_covered') = 'true'`));
  // A query without a letter or digit has no words to look for: no search (rather than no match).
  if (filters.q && /[\p{L}\p{N}]/u.test(filters.q))
    // A semi-join from the GIN index's matches: PostgreSQL reads the matching messages once instead
    // of probing every chatroom's messages.
    where.push(
      `c.id IN (SELECT m.chatroom_id FROM messages m
        WHERE to_tsvector('simple', m.message) @@ websearch_to_tsquery('simple', ${params.add(filters.q)}))`,
    );
  return where.join(' AND ');
}

/** A position in the log's order (newest activity first): the row's activity in microseconds since 1970 and its id. */
export interface LogPosition {
  micros: string;
  id: number;
}

/** SQL of the activity instant as whole microseconds, exact (a JavaScript Date holds milliseconds only). */
export const ACTIVITY_MICROS_SQL = `(extract(epoch FROM c.last_message_at) * 1000000)::bigint::text`;

/** SQL true for rows after the position in the log's order. */
export function afterPosition(params: SqlParams, position: LogPosition): string {
  return `(c.last_message_at, c.id) < (timestamptz 'epoch' + ${params.add(position.micros)}::bigint * interval '1 microsecond', ${params.add(position.id)}::int)`;
}

export const encodeCursor = (position: LogPosition) =>
  Buffer.from(`${position.micros}.${position.id}`).toString('base64url');

/** The position a cursor holds; a cursor the API did not hand out is a 400. */
export function decodeCursor(cursor: string): LogPosition {
  const match = /^(-?\d{1,17})\.(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = Number(match?.[2]);
  if (!match || id > 2_147_483_647) throw fieldError('cursor', 'Not a valid cursor');
  return { micros: match[1]!, id };
}
