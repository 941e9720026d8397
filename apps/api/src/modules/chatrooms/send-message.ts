import {
  ASSISTANT_SENDER,
  chatroomNameFrom,
  NEW_CHAT_ID,
  senderIdentifierOf,
  type TSendMessageResponse,
  type ZSendMessageRequest,
} from '@cairn/contracts/chat';
import { chatrooms, messages } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { enqueueAnswer } from '../../answer/enqueue-answer.ts';
import { fieldError } from '../../lib/app-error.ts';
import { findApplication } from '../applications/find-application.ts';
import { findChatroom } from './find-chatroom.ts';
import { publishChatEvent } from './publish-chat-event.ts';
import { serializeChatroom, serializeMessage } from './serialize-chat.ts';

/**
 * Stores the owner's message (creating the chatroom for `new_chat`) and, unless it is meant for the
 * chatroom's end user (`send_to_user`), an empty `pending` answer plus the job that writes it.
 */
export async function sendMessage(
  app: FastifyInstance,
  ownerId: number,
  appUuid: string,
  input: z.output<typeof ZSendMessageRequest>,
): Promise<TSendMessageResponse> {
  if (input.sender_identifier !== senderIdentifierOf(ownerId)) {
    throw fieldError('sender_identifier', 'Must be your own sender identifier.');
  }
  const db = app.db;
  const application = await findApplication(db, ownerId, appUuid);
  let chatroom =
    input.chatroom_identifier === NEW_CHAT_ID
      ? undefined
      : (await findChatroom(db, ownerId, appUuid, input.chatroom_identifier)).chatroom;

  const result = await db.transaction(async (tx) => {
    if (!chatroom) {
      [chatroom] = await tx
        .insert(chatrooms)
        .values({ applicationId: application.id, name: chatroomNameFrom(input.message) })
        .returning();
    }
    const metadata = { ...input.metadata, ...(input.send_to_user && { send_to_user: true }) };
    const [message] = await tx
      .insert(messages)
      .values({
        chatroomId: chatroom!.id,
        senderIdentifier: input.sender_identifier,
        message: input.message,
        metadata,
      })
      .returning();
    const [answer] = input.send_to_user
      ? [undefined]
      : await tx
          .insert(messages)
          .values({
            chatroomId: chatroom!.id,
            senderIdentifier: ASSISTANT_SENDER,
            status: 'pending',
            metadata: { reply_to: message!.uuid },
          })
          .returning();
    const [room] = await tx
      .update(chatrooms)
      .set({ lastMessageAt: sql`now()` })
      .where(eq(chatrooms.id, chatroom!.id))
      .returning();
    return { room: room!, message: message!, answer };
  });

  const base = { application_uuid: application.uuid, chatroom_uuid: result.room.uuid };
  const response: TSendMessageResponse = {
    chatroom: serializeChatroom(result.room),
    message: serializeMessage(result.message),
    answer: result.answer ? serializeMessage(result.answer) : null,
  };
  // Events first, then the job: a client must know the answer before its first delta arrives.
  await publishChatEvent(app, ownerId, { kind: 'chatroom', ...base, chatroom: response.chatroom });
  await publishChatEvent(app, ownerId, { kind: 'created', ...base, message: response.message });
  if (response.answer) {
    await publishChatEvent(app, ownerId, { kind: 'created', ...base, message: response.answer });
    await enqueueAnswer(app, { messageId: result.answer!.id, run: result.answer!.run });
  }
  return response;
}
