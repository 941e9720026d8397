import type { TMessage, TMessageEvent } from '@cairn/contracts/chat';
import type { FastifyInstance } from 'fastify';
import { type MessageRow, serializeMessage } from './serialize-chat.ts';

/** Every chat change reaches every socket of the owner as a `message` event (see TMessageEvent). */
export function publishChatEvent(app: FastifyInstance, ownerId: number, data: TMessageEvent): Promise<void> {
  return app.realtime.publish(ownerId, { event: 'message', data });
}

/** Announces a changed message as an `updated` event; returns it as the API shows it. */
export async function publishMessageUpdated(
  app: FastifyInstance,
  ownerId: number,
  where: { application: { uuid: string }; chatroom: { uuid: string } },
  row: MessageRow,
): Promise<TMessage> {
  const message = serializeMessage(row);
  await publishChatEvent(app, ownerId, {
    kind: 'updated',
    application_uuid: where.application.uuid,
    chatroom_uuid: where.chatroom.uuid,
    message,
  });
  return message;
}
