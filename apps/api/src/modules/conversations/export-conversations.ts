import { ASSISTANT_SENDER, SENDER_PREFIX } from '@cairn/contracts/chat';
import type { TConversationFilters, TExportFormat } from '@cairn/contracts/conversations';
import type { Database } from '@cairn/db/client';
import {
  ACTIVITY_MICROS_SQL,
  afterPosition,
  conversationWhere,
  type LogPosition,
  SqlParams,
} from './conversation-filters.ts';
import { type ExportRow, exportLine, exportPreamble } from './export-format.ts';
import { filterTimeZone } from './list-conversations.ts';

/** Conversations read per batch, and messages per query: what the export holds in memory at most. */
const CHATROOM_BATCH = 200;
const MESSAGE_BATCH = 2000;

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
 * text chunks for a stream (decision 065). What it holds at a time is one batch, whatever the
 * size: the chatrooms are read by keyset in the log's order (newest activity first) and each
 * batch's messages by keyset too, oldest first within a conversation. It is the data as it was
 * when the export began: later messages are left out, and a conversation that became active
 * meanwhile (it left its place in the order) is written by a last pass over those.
 */
export async function* exportConversations(
  database: Database,
  ownerId: number,
  applicationId: number,
  filters: TConversationFilters,
  format: TExportFormat,
): AsyncGenerator<string> {
  const timeZone = await filterTimeZone(database, ownerId, filters);
  const [start] = (
    await database.query<{ micros: string }>(
      `SELECT (extract(epoch FROM now()) * 1000000)::bigint::text AS micros`,
    )
  ).rows;
  const startedAt = `timestamptz 'epoch' + ${start!.micros}::bigint * interval '1 microsecond'`;
  yield exportPreamble(format);
  for (const range of [`c.last_message_at <= ${startedAt}`, `c.last_message_at > ${startedAt}`]) {
    let position: LogPosition | undefined;
    for (;;) {
      const params = new SqlParams();
      const where = [conversationWhere(params, applicationId, filters, timeZone), range];
      if (position) where.push(afterPosition(params, position));
      const { rows: batch } = await database.query<{ id: number; activity_micros: string }>(
        `SELECT c.id, ${ACTIVITY_MICROS_SQL} AS activity_micros FROM chatrooms c
         WHERE ${where.join(' AND ')}
         ORDER BY c.last_message_at DESC, c.id DESC LIMIT ${CHATROOM_BATCH}`,
        params.values,
      );
      if (batch.length === 0) break;
      yield* exportMessages(
        database,
        batch.map((c) => c.id),
        startedAt,
        format,
      );
      const last = batch.at(-1)!;
      position = { micros: last.activity_micros, id: last.id };
      if (batch.length < CHATROOM_BATCH) break;
    }
  }
}

/** The messages of a batch of chatrooms, in the batch's order, each chatroom's oldest first. */
async function* exportMessages(
  database: Database,
  chatroomIds: number[],
  startedAt: string,
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
       WHERE m.created_at <= ${startedAt} AND (b.n, m.id) > ($2::bigint, $3::int)
       ORDER BY b.n, m.id LIMIT ${MESSAGE_BATCH}`,
      [chatroomIds, after.n, after.id],
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
