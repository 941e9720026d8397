import type { TChatroom, TChatroomList } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { eqLiteral } from '@cairn/db/literal';
import { preparedPerDb } from '@cairn/db/prepared';
import { chatrooms } from '@cairn/db/schema';
import { and, desc, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../lib/ctx.ts';
import { findApplication } from '../../lib/find-application.ts';
import { serializeChatroom } from './serialize-chat.ts';

/**
 * The sidebar's chatrooms of an application already known to be the caller's, latest activity
 * first: the owner's own chats, and the others a person is waiting for or answering (`isInSidebar`,
 * decision 067). The owner's chats are read along chatrooms_app_source_activity_idx; the others
 * are read along chatrooms_app_with_a_person_idx (migration 0028: few, whatever the traffic).
 * With `limit`, only the latest `limit` and whether there are more (decision 105: the navigation
 * call of every page stays the same size after a thousand chats).
 */
export async function sidebarChatroomsOf(
  db: Db,
  applicationId: number,
  limit?: number,
): Promise<{ chatrooms: TChatroom[]; more: boolean }> {
  const rows =
    limit === undefined
      ? await allSidebarChatrooms(db).execute({ applicationId })
      : // One more than shown says whether there are more; each side stops there along its index.
        await latestSidebarChatrooms(db).execute({ applicationId, limit: limit + 1 });
  const shown = limit === undefined ? rows : rows.slice(0, limit);
  return { chatrooms: shown.map(serializeChatroom), more: rows.length > shown.length };
}

/** The union of both sides, each (and the whole) cut at the `limit` placeholder when `limited`. */
function sidebarUnion(db: Db, limited: boolean) {
  const applicationId = sql.placeholder('applicationId');
  const limit = sql.placeholder('limit');
  const latestFirst = [desc(chatrooms.lastMessageAt), desc(chatrooms.id)] as const;
  const own = db
    .select()
    .from(chatrooms)
    .where(and(eq(chatrooms.applicationId, applicationId), eq(chatrooms.source, 'web')))
    .orderBy(...latestFirst)
    .$dynamic();
  const withAPerson = db
    .select()
    .from(chatrooms)
    .where(
      and(
        eq(chatrooms.applicationId, applicationId),
        ne(chatrooms.source, 'web'),
        or(isNotNull(chatrooms.waitingSince), eqLiteral(chatrooms.handledBy, 'human')),
      ),
    )
    .orderBy(...latestFirst)
    .$dynamic();
  const union = limited ? unionAll(own.limit(limit), withAPerson.limit(limit)) : unionAll(own, withAPerson);
  // Unqualified: the order applies to the union's columns.
  const ordered = union.orderBy(sql`last_message_at DESC, id DESC`).$dynamic();
  return limited ? ordered.limit(limit) : ordered;
}

// The navigation call of every signed-in page reads the window; `GET …/chatrooms/` reads them all.
const latestSidebarChatrooms = preparedPerDb((db) =>
  sidebarUnion(db, true).prepare('sidebar_chatrooms_latest'),
);
const allSidebarChatrooms = preparedPerDb((db) => sidebarUnion(db, false).prepare('sidebar_chatrooms_all'));

/** The application's sidebar chatrooms, latest activity first. */
export async function listChatrooms(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  appUuid: string,
): Promise<TChatroomList> {
  const app = await findApplication(db, ownerId, appUuid);
  return { chatrooms: (await sidebarChatroomsOf(db, app.id)).chatrooms };
}
