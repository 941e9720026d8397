import { ASSISTANT_SENDER, SENDER_PREFIX } from '@cairn/contracts/chat';
import type { TConversationFilters, TExportFormat } from '@cairn/contracts/conversations';
import type { Database } from '@cairn/db/client';
import { conversationWhere, SqlParams } from './conversation-filters.ts';
import { type ExportRow, exportLine, exportPreamble } from './export-format.ts';
import { filterTimeZone } from './list-conversations.ts';

/** Conversations whose messages are read together, and messages per query: one batch is what is held. */
const CHATROOM_BATCH = 500;
const MESSAGE_BATCH = 10_000;

interface MessageRow {
  n: string;
  id: number;
  conversation: string;
  source: string;
  created_at: Date | string;
  sender_identifier: string;
  message: string;
  feedback: string | null;
  titles: unknown;
}

const roleOf = (sender: string): ExportRow['role'] =>
  sender === ASSISTANT_SENDER ? 'assistant' : sender.startsWith(`${SENDER_PREFIX}_`) ? 'owner' : 'user';

/** The distinct titles of the cited items, in citation order. */
const titlesOf = (titles: unknown) =>
  Array.isArray(titles) ? [...new Set(titles.filter((t): t is string => typeof t === 'string'))] : [];

/**
 * The export of an application's conversations that match the filters, one row per message, as
 * text chunks for a stream (decision 065). It starts from the ids of the matching conversations
 * in the log's order (newest activity first), read once: 4 bytes a conversation, and a snapshot,
 * so a conversation that becomes active meanwhile keeps its place and messages written after the
 * start are left out. Their messages are then read by keyset, a batch of conversations at a time,
 * oldest first within each: what is held besides the ids is one batch, whatever the size.
 */
export async function* exportConversations(
  database: Database,
  ownerId: number,
  applicationId: number,
  filters: TConversationFilters,
  format: TExportFormat,
): AsyncGenerator<string> {
  const [start] = (
    await database.query<{ micros: string }>(
      `SELECT (extract(epoch FROM now()) * 1000000)::bigint::text AS micros`,
    )
  ).rows;
  const ids = await matchingIds(database, ownerId, applicationId, filters);
  yield exportPreamble(format);
  for (let i = 0; i < ids.length; i += CHATROOM_BATCH) {
    yield* exportMessages(database, [...ids.subarray(i, i + CHATROOM_BATCH)], start!.micros, format);
  }
}

/** The ids of the conversations matching the filters, in the log's order; the matches of a search read first. */
async function matchingIds(
  database: Database,
  ownerId: number,
  applicationId: number,
  filters: TConversationFilters,
): Promise<Int32Array> {
  const params = new SqlParams();
  const timeZone = await filterTimeZone(database, ownerId, filters);
  const where = conversationWhere(params, applicationId, filters, timeZone, 'matches-first');
  const { rows } = await database.query<{ id: number }>(
    `SELECT c.id FROM chatrooms c WHERE ${where} ORDER BY c.last_message_at DESC, c.id DESC`,
    params.values,
  );
  return Int32Array.from(rows, (r) => r.id);
}

/** The messages of a batch of chatrooms, in the batch's order, each chatroom's oldest first. */
async function* exportMessages(
  database: Database,
  chatroomIds: number[],
  startedMicros: string,
  format: TExportFormat,
): AsyncGenerator<string> {
  let after = { n: 0, id: 0 };
  for (;;) {
    const { rows } = await database.query<MessageRow>(
      `SELECT b.n::text AS n, m.id, c.uuid AS conversation, c.source, m.created_at, m.sender_identifier,
              m.message, m.feedback, jsonb_path_query_array(m.metadata, '$.sources[*].item_title') AS titles
       FROM unnest($1::int[]) WITH ORDINALITY AS b(id, n)
       JOIN chatrooms c ON c.id = b.id
       JOIN messages m ON m.chatroom_id = b.id
       WHERE m.created_at <= timestamptz 'epoch' + $2::bigint * interval '1 microsecond'
         AND (b.n, m.id) > ($3::bigint, $4::int)
       ORDER BY b.n, m.id LIMIT ${MESSAGE_BATCH}`,
      [chatroomIds, startedMicros, after.n, after.id],
    );
    if (rows.length === 0) return;
    yield rows
      .map((r) =>
        exportLine(format, {
          conversation: r.conversation,
          source: r.source,
          created_at: new Date(r.created_at).toISOString(),
          sender: r.sender_identifier,
          role: roleOf(r.sender_identifier),
          text: r.message,
          rating: r.feedback,
          sources: titlesOf(r.titles),
        }),
      )
      .join('');
    const last = rows.at(-1)!;
    after = { n: Number(last.n), id: last.id };
    if (rows.length < MESSAGE_BATCH) return;
  }
}
