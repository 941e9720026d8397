import type { Db } from '@cairn/db/client';
import { preparedPerDb } from '@cairn/db/prepared';
import { applications, chatrooms } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';

const ownedChatroom = preparedPerDb((db) =>
  db
    .select({ chatroom: chatrooms, application: applications })
    .from(chatrooms)
    .innerJoin(applications, eq(applications.id, chatrooms.applicationId))
    .where(
      and(
        eq(chatrooms.uuid, sql.placeholder('chatroomUuid')),
        eq(applications.uuid, sql.placeholder('appUuid')),
        eq(applications.ownerId, sql.placeholder('ownerId')),
      ),
    )
    .prepare('owned_chatroom'),
);

/** The chatroom with its application, both the caller's, or a 404 whether absent or someone else's. */
export async function findChatroom(db: Db, ownerId: number, appUuid: string, chatroomUuid: string) {
  const [row] = await ownedChatroom(db).execute({ ownerId, appUuid, chatroomUuid });
  if (!row) throw notFound('Chatroom not found.');
  return row;
}
