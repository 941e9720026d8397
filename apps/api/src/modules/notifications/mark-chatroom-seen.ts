import { applications, chatrooms, chatroomViews } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

/**
 * Records that the owner opened a chatroom's messages now ("seen in the app"): a notification
 * e-mail about it that is still waiting is skipped. Never throws; reading messages goes on.
 */
export async function markChatroomSeen(app: Ctx, ownerId: number, chatroomUuid: string) {
  try {
    const [room] = await app.db
      .select({ id: chatrooms.id })
      .from(chatrooms)
      .innerJoin(applications, eq(applications.id, chatrooms.applicationId))
      .where(and(eq(chatrooms.uuid, chatroomUuid), eq(applications.ownerId, ownerId)));
    if (!room) return;
    const seenAt = app.notifications.clock();
    await app.db
      .insert(chatroomViews)
      .values({ chatroomId: room.id, userId: ownerId, seenAt })
      .onConflictDoUpdate({
        target: [chatroomViews.chatroomId, chatroomViews.userId],
        set: { seenAt: sql`GREATEST(${chatroomViews.seenAt}, excluded.seen_at)` },
      });
  } catch (err) {
    app.log.warn({ err }, 'could not record a chatroom as seen');
  }
}
