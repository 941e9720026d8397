import type { TChatroom, TChatroomList } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { chatrooms } from '@cairn/db/schema';
import { desc, eq } from 'drizzle-orm';
import { findApplication } from '../applications/find-application.ts';
import { serializeChatroom } from './serialize-chat.ts';

/** The chatrooms of an application already known to be the caller's, latest activity first. */
export async function chatroomsOf(db: Db, applicationId: number): Promise<TChatroom[]> {
  const rows = await db
    .select()
    .from(chatrooms)
    .where(eq(chatrooms.applicationId, applicationId))
    .orderBy(desc(chatrooms.lastMessageAt), desc(chatrooms.id));
  return rows.map(serializeChatroom);
}

/** The application's chatrooms, latest activity first. */
export async function listChatrooms(db: Db, ownerId: number, appUuid: string): Promise<TChatroomList> {
  const app = await findApplication(db, ownerId, appUuid);
  return { chatrooms: await chatroomsOf(db, app.id) };
}
