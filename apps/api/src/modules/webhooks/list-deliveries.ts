import type { TWebhookDeliveryList } from '@cairn/contracts/webhooks';
import { webhookAttempts, webhookDeliveries } from '@cairn/db/schema';
import { and, asc, desc, eq, inArray, lt, or, type SQL } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { findWebhook } from './find-webhook.ts';
import { type AttemptRow, serializeDelivery } from './serialize-delivery.ts';

/** The webhook's deliveries, newest first, each with its attempts; `before` pages to older ones. */
export async function listDeliveries(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  webhookUuid: string,
  query: { limit: number; before?: string | undefined },
): Promise<TWebhookDeliveryList> {
  const { webhook } = await findWebhook(db, ownerId, webhookUuid);
  let older: SQL | undefined;
  if (query.before) {
    const [cursor] = await db
      .select({ id: webhookDeliveries.id, createdAt: webhookDeliveries.createdAt })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.uuid, query.before), eq(webhookDeliveries.webhookId, webhook.id)));
    if (!cursor) throw notFound('Delivery not found.');
    older = or(
      lt(webhookDeliveries.createdAt, cursor.createdAt),
      and(eq(webhookDeliveries.createdAt, cursor.createdAt), lt(webhookDeliveries.id, cursor.id)),
    );
  }
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhook.id), older))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const attempts = page.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            page.map((r) => r.id),
          ),
        )
        .orderBy(asc(webhookAttempts.number), asc(webhookAttempts.id))
    : [];
  const byDelivery = new Map<number, AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  return {
    deliveries: page.map((r) => serializeDelivery(r, byDelivery.get(r.id) ?? [])),
    next_before: rows.length > query.limit ? page.at(-1)!.uuid : null,
  };
}
