import { preparedPerDb } from '@cairn/db/prepared';
import { applications, chatrooms, chatroomViews } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

// Every opening of a chatroom's messages runs both.
const ownedChatroomId = preparedPerDb((db) =>
  db
    .select({ id: chatrooms.id })
    .from(chatrooms)
    .innerJoin(applications, eq(applications.id, chatrooms.applicationId))
    .where(
      and(
        eq(chatrooms.uuid, sql.placeholder('chatroomUuid')),
        eq(applications.ownerId, sql.placeholder('ownerId')),
      ),
    )
    .prepare('owned_chatroom_id'),
);
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
 * e-mail about it that is still waiting is skipped. Never throws; reading messages goes on.
 */
export async function markChatroomSeen(app: Ctx, ownerId: number, chatroomUuid: string) {
  try {
    const [room] = await ownedChatroomId(app.db).execute({ chatroomUuid, ownerId });
    if (!room) return;
    await recordView(app.db).execute({
      chatroomId: room.id,
      userId: ownerId,
      seenAt: app.notifications.clock(),
    });
  } catch (err) {
    app.log.warn({ err }, 'could not record a chatroom as seen');
  }
}
