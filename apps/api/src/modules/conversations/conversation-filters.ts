import { ASSISTANT_SENDER, SENDER_PREFIX } from '@cairn/contracts/chat';
import type { TConversationFilters } from '@cairn/contracts/conversations';
import type { Database } from '@cairn/db/client';
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
  search: SearchPlan = 'matches-first',
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
  if (hasWords(filters.q)) where.push(searchCondition(params, filters.q, search));
  return where.join(' AND ');
}

/** A query without a letter or digit has no words to look for: no search (rather than no match). */
export const hasWords = (q: string | undefined): q is string => !!q && /[\p{L}\p{N}]/u.test(q);

/** The search as `messages_search_idx` indexes it (the expression must be exactly the index's). */
const matches = (params: SqlParams, q: string) =>
  `to_tsvector('simple', m.message) @@ websearch_to_tsquery('simple', ${params.add(q)})`;

/**
 * How a search finds its conversations (decision 065). `matches-first`: every matching message
 * from the GIN index, then their chatrooms (`OFFSET 0` keeps PostgreSQL from turning it into a
 * probe per chatroom), cheap when few messages match. `walk`: PostgreSQL's choice, which for a
 * common word walks the log in order and probes each chatroom's messages until the page is full.
 */
type SearchPlan = 'matches-first' | 'walk';

function searchCondition(params: SqlParams, q: string, plan: SearchPlan): string {
  const fence = plan === 'matches-first' ? ' OFFSET 0' : '';
  return `c.id IN (SELECT m.chatroom_id FROM messages m WHERE ${matches(params, q)}${fence})`;
}

/**
 * The plan for a page of a search, from PostgreSQL's estimates. For a page of 50, the walk probes
 * about 50 × N / M messages (N messages, M matching), reading the matches first about 2 × M rows
 * (the messages, then their chatrooms): the matches first up to M ≈ 5 × √N (5,000 at a million).
 */
export async function searchPlan(database: Database, q: string): Promise<SearchPlan> {
  const params = new SqlParams();
  const [estimate, total] = await Promise.all([
    database.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM messages m WHERE ${matches(params, q)}`,
      params.values,
    ),
    database.query<{ n: number }>(
      `SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = 'messages'::regclass`,
    ),
  ]);
  const expected = estimate.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0;
  return expected <= 5 * Math.sqrt(total.rows[0]?.n ?? 0) ? 'matches-first' : 'walk';
}

/** A position in the log's order (newest activity first): the row's activity in microseconds since 1970 and its id. */
interface LogPosition {
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
