import type { TChatroomList } from '@cairn/contracts/chat';
import type { Db } from '@cairn/db/client';
import { chatrooms } from '@cairn/db/schema';
import { desc, eq } from 'drizzle-orm';
import { findApplication } from '../applications/find-application.ts';
import { serializeChatroom } from './serialize-chat.ts';

/** The application's chatrooms, latest activity first. */
export async function listChatrooms(db: Db, ownerId: number, appUuid: string): Promise<TChatroomList> {
  const app = await findApplication(db, ownerId, appUuid);
  const rows = await db
    .select()
    .from(chatrooms)
    .where(eq(chatrooms.applicationId, app.id))
    .orderBy(desc(chatrooms.lastMessageAt), desc(chatrooms.id));
  return { chatrooms: rows.map(serializeChatroom) };
}
