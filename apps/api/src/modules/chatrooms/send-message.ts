import { randomUUID } from 'node:crypto';
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
import { takenAnswer, wakeAnswerWorkers } from '../../answer/answer-queue.ts';
import { fieldError } from '../../lib/app-error.ts';
import { findApplication } from '../applications/find-application.ts';
import { findChatroom } from './find-chatroom.ts';
import { publishChatEvent } from './publish-chat-event.ts';
import { serializeChatroom, serializeMessage } from './serialize-chat.ts';

/**
 * Stores the owner's message (creating the chatroom for `new_chat`) and, unless it is meant for the
 * chatroom's end user (`send_to_user`), an empty answer: taken and started at once in one of this
 * process's answer slots, or left `pending` for the answer workers (see answer-queue.ts).
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
  const found =
    input.chatroom_identifier === NEW_CHAT_ID
      ? { application: await findApplication(db, ownerId, appUuid), chatroom: undefined }
      : await findChatroom(db, ownerId, appUuid, input.chatroom_identifier);
  const { application } = found;
  const { chatroom } = found;

  const slot = input.send_to_user ? null : app.answers.reserve();
  // Both messages go in one INSERT (the answer names the question's uuid, so it is made here), and
  // a new chatroom is created with the activity time already set: few statements, few round trips.
  const questionUuid = randomUUID();
  const stored = db.transaction(async (tx) => {
    const [room] = chatroom
      ? await tx
          .update(chatrooms)
          .set({ lastMessageAt: sql`now()` })
          .where(eq(chatrooms.id, chatroom.id))
          .returning()
      : await tx
          .insert(chatrooms)
          .values({ applicationId: application.id, name: chatroomNameFrom(input.message) })
          .returning();
    const question = {
      uuid: questionUuid,
      chatroomId: room!.id,
      senderIdentifier: input.sender_identifier,
      message: input.message,
      metadata: { ...input.metadata, ...(input.send_to_user && { send_to_user: true }) },
    };
    const answer = {
      chatroomId: room!.id,
      senderIdentifier: ASSISTANT_SENDER,
      ...(slot ? takenAnswer() : { status: 'pending' as const }),
      metadata: { reply_to: questionUuid },
    };
    const rows = await tx
      .insert(messages)
      .values(input.send_to_user ? [question] : [question, answer])
      .returning();
    return {
      room: room!,
      message: rows.find((row) => row.uuid === questionUuid)!,
      answer: rows.find((row) => row.uuid !== questionUuid),
    };
  });
  const result = await stored.catch((error: unknown) => {
    slot?.release();
    throw error;
  });

  const base = { application_uuid: application.uuid, chatroom_uuid: result.room.uuid };
  const response: TSendMessageResponse = {
    chatroom: serializeChatroom(result.room),
    message: serializeMessage(result.message),
    answer: result.answer ? serializeMessage(result.answer) : null,
  };
  // The answer starts while its events go out; it holds its first delta until they are published.
  const announced = (async () => {
    await publishChatEvent(app, ownerId, { kind: 'chatroom', ...base, chatroom: response.chatroom });
    await publishChatEvent(app, ownerId, { kind: 'created', ...base, message: response.message });
    if (response.answer)
      await publishChatEvent(app, ownerId, { kind: 'created', ...base, message: response.answer });
  })();
  if (slot && result.answer) {
    slot.run({
      application,
      chatroom: result.room,
      answer: result.answer,
      question: input.message,
      announced,
    });
  }
  await announced;
  if (!slot && result.answer) await wakeAnswerWorkers(app);
  return response;
}
