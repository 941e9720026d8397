import type { TChatroom, TChatroomList } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { chatrooms } from '@cairn/db/schema';
import { and, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../lib/ctx.ts';
import { findApplication } from '../../lib/find-application.ts';
import { serializeChatroom } from './serialize-chat.ts';

/**
 * The sidebar's chatrooms of an application already known to be the caller's, latest activity
 * first: the owner's own chats, and the others a person is waiting for or answering (`isInSidebar`,
 * decision 067). The owner's chats are read along chatrooms_app_source_activity_idx; the others
 * are read along chatrooms_app_with_a_person_idx (migration 0028: few, whatever the traffic).
 */
export async function sidebarChatroomsOf(db: Db, applicationId: number): Promise<TChatroom[]> {
  const own = db
    .select()
    .from(chatrooms)
    .where(and(eq(chatrooms.applicationId, applicationId), eq(chatrooms.source, 'web')));
  const withAPerson = db
    .select()
    .from(chatrooms)
    .where(
      and(
        eq(chatrooms.applicationId, applicationId),
        ne(chatrooms.source, 'web'),
        or(isNotNull(chatrooms.waitingSince), eq(chatrooms.handledBy, 'human')),
      ),
    );
  // Unqualified: the order applies to the union's columns.
  const rows = await unionAll(own, withAPerson).orderBy(sql`last_message_at DESC, id DESC`);
  return rows.map(serializeChatroom);
}

/** The application's sidebar chatrooms, latest activity first. */
export async function listChatrooms(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  appUuid: string,
): Promise<TChatroomList> {
  const app = await findApplication(db, ownerId, appUuid);
  return { chatrooms: await sidebarChatroomsOf(db, app.id) };
}
