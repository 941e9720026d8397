import type { TMessageEvent } from '@cairn/contracts/chat';
import type { FastifyInstance } from 'fastify';

/** Every chat change reaches every socket of the owner as a `message` event (see TMessageEvent). */
export function publishChatEvent(app: FastifyInstance, ownerId: number, data: TMessageEvent): Promise<void> {
  return app.realtime.publish(ownerId, { event: 'message', data });
}
