import type { TWebhookDelivery } from '@cairn/contracts/webhooks';
import { webhookAttempts, webhookDeliveries } from '@cairn/db/schema';
import { and, asc, eq, sql } from 'drizzle-orm';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { findWebhook } from './find-webhook.ts';
import { queueDeliveries } from './queue-deliveries.ts';
import { serializeDelivery } from './serialize-delivery.ts';

/**
 * Sends one delivery again now, with the same `webhook-id` and body (receivers that already have it
 * can drop it). A failed one gets this one attempt; a pending one has its next attempt moved to now.
 */
export async function retryDelivery(
  app: Ctx,
  ownerId: number,
  webhookUuid: string,
  deliveryUuid: string,
): Promise<TWebhookDelivery> {
  const { webhook } = await findWebhook(app.db, ownerId, webhookUuid);
  if (!webhook.enabled)
    throw new AppError('conflict', 'This webhook is disabled. Enable it to resend deliveries.');
  const [row] = await app.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(webhookDeliveries.uuid, deliveryUuid), eq(webhookDeliveries.webhookId, webhook.id)))
    .returning();
  if (!row) throw notFound('Delivery not found.');
  await queueDeliveries(app, [row]);
  const attempts = await app.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, row.id))
    .orderBy(asc(webhookAttempts.number));
  return serializeDelivery(row, attempts);
}
