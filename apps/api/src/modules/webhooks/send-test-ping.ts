import type { TWebhookDelivery } from '@cairn/contracts/webhooks';
import { webhookDeliveries } from '@cairn/db/schema';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { findWebhook } from './find-webhook.ts';
import { queueDeliveries } from './queue-deliveries.ts';
import { serializeDelivery } from './serialize-delivery.ts';

export const PING_MESSAGE = 'Hello from Cairn: this webhook works.';

/** Sends `webhook.ping` to this webhook alone (whatever events it chose); the answer is the queued delivery. */
export async function sendTestPing(
  app: FastifyInstance,
  ownerId: number,
  uuid: string,
): Promise<TWebhookDelivery> {
  const { webhook } = await findWebhook(app.db, ownerId, uuid);
  if (!webhook.enabled) throw new AppError('conflict', 'This webhook is disabled. Enable it to send a test.');
  const body = JSON.stringify({
    type: 'webhook.ping',
    timestamp: new Date().toISOString(),
    data: { webhook_uuid: webhook.uuid, message: PING_MESSAGE },
  });
  const [row] = await app.db
    .insert(webhookDeliveries)
    .values({ webhookId: webhook.id, eventType: 'webhook.ping', body })
    .returning();
  await queueDeliveries(app, [row!]);
  return serializeDelivery(row!, []);
}
