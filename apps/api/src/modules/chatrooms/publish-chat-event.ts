import type { TMessage } from '@cairn/contracts/chat';
import type { Ctx } from '../../lib/ctx.ts';
import { type MessageRow, serializeMessage } from './serialize-chat.ts';

/** Announces a changed message as an `updated` chat change; returns it as the API shows it. */
export async function publishMessageUpdated(
  app: Ctx,
  ownerId: number,
  where: { application: { uuid: string }; chatroom: { uuid: string; visitorUuid?: string | null } },
  row: MessageRow,
): Promise<TMessage> {
  const message = serializeMessage(row);
  await app.events.emit('chat.changed', {
    ownerId,
    change: {
      kind: 'updated',
      application_uuid: where.application.uuid,
      chatroom_uuid: where.chatroom.uuid,
      visitor_uuid: where.chatroom.visitorUuid ?? undefined,
      message,
    },
  });
  return message;
}
