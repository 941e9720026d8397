import { preparedPerDb } from '@cairn/db/prepared';
import { chatroomViews } from '@cairn/db/schema';
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

// Every opening of a chatroom's messages runs it.
const recordView = preparedPerDb((db) =>
  db
    .insert(chatroomViews)
    .values({
      chatroomId: sql.placeholder('chatroomId'),
      userId: sql.placeholder('userId'),
      seenAt: sql.placeholder('seenAt'),
    })
    .onConflictDoUpdate({
      target: [chatroomViews.chatroomId, chatroomViews.userId],
      set: { seenAt: sql`GREATEST(${chatroomViews.seenAt}, excluded.seen_at)` },
    })
    .prepare('record_chatroom_view'),
);

/**
 * Records that the owner opened a chatroom's messages now ("seen in the app"): a notification
 * e-mail about it that is still waiting is skipped. The opening found the chatroom as the owner's.
 * Never throws; reading messages goes on.
 */
export async function markChatroomSeen(app: Ctx, ownerId: number, chatroomId: number) {
  try {
    await recordView(app.db).execute({ chatroomId, userId: ownerId, seenAt: app.notifications.clock() });
  } catch (err) {
    app.log.warn({ err }, 'could not record a chatroom as seen');
  }
}
