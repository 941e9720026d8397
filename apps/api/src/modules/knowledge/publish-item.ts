import type { TKbUpdateEvent } from '@cairn/contracts/knowledge';
import type { FastifyInstance } from 'fastify';
import { type KnowledgeItemRow, serializeItem } from './serialize-item.ts';

export interface ItemOwner {
  ownerId: number;
  applicationUuid: string;
}

/** Tells the owner's open sockets (in every process) that an item changed. */
export async function publishItem(
  realtime: FastifyInstance['realtime'],
  owner: ItemOwner,
  row: KnowledgeItemRow,
  deleted = false,
): Promise<void> {
  const data: TKbUpdateEvent = {
    application_uuid: owner.applicationUuid,
    item: serializeItem(row),
    ...(deleted && { deleted: true }),
  };
  await realtime.publish(owner.ownerId, { event: 'kb_updates', data });
}
