import { isInSidebar, type TChatroom } from '@cairn/contracts/chat';
import { applications } from '@cairn/db/schema';
import { isNotNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { rowsOf } from '../../rag/sql-rows.ts';

/**
 * Chatrooms deleted per statement: a backlog of months (a retention just switched on) is deleted in
 * many short transactions instead of one that holds its locks for minutes.
 */
export const RETENTION_BATCH = 500;

type DeletedRoom = Pick<TChatroom, 'uuid' | 'source' | 'handled_by' | 'waiting_since'>;

/**
 * Deletes, for every application with a `conversation_retention_days`, the conversations whose
 * last message is older than that at `now` (decision 067). Their messages, notifications, views,
 * unanswered-question asks and integration threads go with them (foreign keys cascade); their
 * stored Responses API bodies (which hold the text, and would only lose their link) are deleted
 * here. Open unanswered-question groups left with no ask are deleted too: they hold a deleted
 * visitor's question. The analytics rollups have no link to chatrooms and stay. Rooms the sidebar
 * shows are announced as `chatroom_deleted`; the others are in no live list. Returns how many
 * conversations were deleted.
 */
export async function deleteExpiredConversations(
  app: Ctx,
  now: Date,
  batch = RETENTION_BATCH,
): Promise<number> {
  const kept = await app.db
    .select({
      id: applications.id,
      uuid: applications.uuid,
      ownerId: applications.ownerId,
      days: applications.conversationRetentionDays,
    })
    .from(applications)
    .where(isNotNull(applications.conversationRetentionDays));
  let total = 0;
  for (const application of kept) {
    const cutoff = new Date(now.getTime() - application.days! * 86_400_000);
    for (;;) {
      const deleted = await deleteBatch(app, application.id, cutoff, batch);
      total += deleted.length;
      for (const room of deleted.filter(isInSidebar)) {
        await app.events.emit('chat.changed', {
          ownerId: application.ownerId,
          change: {
            kind: 'chatroom_deleted',
            application_uuid: application.uuid,
            chatroom_uuid: room.uuid,
          },
        });
      }
      if (deleted.length < batch) break;
    }
    await app.db.execute(sql`
      DELETE FROM unanswered_questions q
       WHERE q.application_id = ${application.id} AND q.status = 'open'
         AND NOT EXISTS (SELECT 1 FROM unanswered_question_asks a WHERE a.group_id = q.id)`);
  }
  return total;
}

/** One batch of one application's expired chatrooms, oldest first, in its own transaction. */
async function deleteBatch(
  app: Ctx,
  applicationId: number,
  cutoff: Date,
  batch: number,
): Promise<DeletedRoom[]> {
  return app.db.transaction(async (tx) => {
    // chatrooms_app_activity_idx: the application's rooms by last activity, oldest first.
    const doomed = rowsOf<{ id: number }>(
      await tx.execute(sql`
        SELECT id FROM chatrooms
         WHERE application_id = ${applicationId} AND last_message_at < ${cutoff.toISOString()}::timestamptz
         ORDER BY last_message_at, id
         LIMIT ${batch}
         FOR UPDATE SKIP LOCKED`),
    ).map((row) => row.id);
    if (doomed.length === 0) return [];
    const ids = `{${doomed.join(',')}}`;
    // A stored response's id is its answer's: `resp_` and the message uuid without dashes.
    await tx.execute(sql`
      DELETE FROM stored_responses
       WHERE id IN (SELECT 'resp_' || replace(m.uuid::text, '-', '')
                      FROM messages m WHERE m.chatroom_id = ANY(${ids}::int[]))`);
    return rowsOf<DeletedRoom>(
      await tx.execute(sql`
        DELETE FROM chatrooms WHERE id = ANY(${ids}::int[])
        RETURNING uuid, source, handled_by, waiting_since`),
    );
  });
}
