import type { Db } from '@cairn/db/client';
import { applications, chatrooms } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';

/** The chatroom with its application, both the caller's, or a 404 whether absent or someone else's. */
export async function findChatroom(db: Db, ownerId: number, appUuid: string, chatroomUuid: string) {
  const [row] = await db
    .select({ chatroom: chatrooms, application: applications })
    .from(chatrooms)
    .innerJoin(applications, eq(applications.id, chatrooms.applicationId))
    .where(
      and(
        eq(chatrooms.uuid, chatroomUuid),
        eq(applications.uuid, appUuid),
        eq(applications.ownerId, ownerId),
      ),
    );
  if (!row) throw notFound('Chatroom not found.');
  return row;
}
