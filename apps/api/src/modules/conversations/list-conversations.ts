import type { TChatroomSource, THandledBy } from '@cairn/contracts/chat';
import type {
  TConversationFilters,
  TConversationPage,
  TConversationQuery,
} from '@cairn/contracts/conversations';
import type { Database } from '@cairn/db/client';
import type { Ctx } from '../../lib/ctx.ts';
import { ownerTimeZone } from '../notifications/owner-time-zone.ts';
import {
  ACTIVITY_MICROS_SQL,
  afterPosition,
  conversationWhere,
  decodeCursor,
  encodeCursor,
  hasWords,
  SqlParams,
  searchPlan,
  VISITOR_SENDER_SQL,
} from './conversation-filters.ts';

interface ConversationRow {
  id: number;
  uuid: string;
  name: string;
  source: TChatroomSource;
  handled_by: THandledBy;
  waiting_since: Date | string | null;
  started_on: string | null;
  created_at: Date | string;
  last_message_at: Date | string;
  activity_micros: string;
  message_count: number;
  rating_up: number;
  rating_down: number;
  not_covered_count: number;
  visitor: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The time zone the filters' dates are read in: the owner's, asked only when a date is given. */
export const filterTimeZone = (database: Database, ownerId: number, filters: TConversationFilters) =>
  filters.from || filters.to ? ownerTimeZone(database.db, ownerId) : Promise.resolve('UTC');

/**
 * One page of an application's conversation log, newest activity first (decision 065): the page's
 * chatrooms come from the keyset index `chatrooms_app_activity_idx`; what they hold is counted for
 * those rows only.
 */
export async function listConversations(
  { database }: Pick<Ctx, 'database'>,
  ownerId: number,
  applicationId: number,
  query: TConversationQuery,
): Promise<TConversationPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const [timeZone, search] = await Promise.all([
    filterTimeZone(database, ownerId, query),
    hasWords(query.q) ? searchPlan(database, query.q) : undefined,
  ]);
  const params = new SqlParams();
  const where = [conversationWhere(params, applicationId, query, timeZone, search)];
  if (after) where.push(afterPosition(params, after));
  const limit = params.add(query.limit + 1);
  const { rows } = await database.query<ConversationRow>(
    `WITH page AS (
       SELECT c.*, ${ACTIVITY_MICROS_SQL} AS activity_micros FROM chatrooms c
       WHERE ${where.join(' AND ')}
       ORDER BY c.last_message_at DESC, c.id DESC
       LIMIT ${limit})
     SELECT c.id, c.uuid, c.name, c.source, c.handled_by, c.waiting_since, c.started_on, c.created_at,
            c.last_message_at, c.activity_micros, s.message_count, s.rating_up, s.rating_down,
            s.not_covered_count, v.visitor
     FROM page c
     CROSS JOIN LATERAL (
       SELECT count(*)::int AS message_count,
              (count(*) FILTER (WHERE m.feedback = 'up'))::int AS rating_up,
              (count(*) FILTER (WHERE m.feedback = 'down'))::int AS rating_down,
              (count(*) FILTER (WHERE (m.metadata->>'not_covered') = 'true'))::int AS not_covered_count
       FROM messages m WHERE m.chatroom_id = c.id) s
     LEFT JOIN LATERAL (
       SELECT m.sender_identifier AS visitor FROM messages m
       WHERE m.chatroom_id = c.id AND ${VISITOR_SENDER_SQL}
       ORDER BY m.id LIMIT 1) v ON true
     ORDER BY c.last_message_at DESC, c.id DESC`,
    params.values,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    results: page.map((r) => ({
      uuid: r.uuid,
      name: r.name,
      source: r.source,
      handled_by: r.handled_by,
      waiting_since: r.waiting_since === null ? null : iso(r.waiting_since),
      started_on: r.started_on,
      created_at: iso(r.created_at),
      last_message_at: iso(r.last_message_at),
      message_count: r.message_count,
      rating_up: r.rating_up,
      rating_down: r.rating_down,
      not_covered_count: r.not_covered_count,
      visitor: r.visitor,
    })),
    next_cursor:
      rows.length > query.limit && last ? encodeCursor({ micros: last.activity_micros, id: last.id }) : null,
  };
}
