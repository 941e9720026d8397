import type { Db } from '@cairn/db/client';
import type { Ctx } from '../../lib/ctx.ts';

export const DELIVERY_QUEUE = 'webhook-deliver';

export interface DeliveryJob {
  deliveryId: number;
}

/**
 * Queues one wake-up job per delivery, due at the delivery's `nextAttemptAt` (an explicit
 * `startAfter` per attempt, DESIGN §8: pg-boss's own backoff cannot express the schedule). pg-boss
 * retries nothing itself: a job only says "look at this row now"; the row decides. Given `tx`, the
 * jobs are inserted in that transaction (on PGlite's one connection, a statement outside an open
 * transaction would wait for it).
 */
export async function queueDeliveries(
  app: Ctx,
  deliveries: Array<{ id: number; nextAttemptAt: Date | null }>,
  tx?: Db,
): Promise<void> {
  if (deliveries.length === 0) return;
  const expireInSeconds = Math.ceil(app.webhooks.settings.timeoutMs / 1000) + 60;
  const jobs = deliveries.map((d) => ({
    data: { deliveryId: d.id } satisfies DeliveryJob,
    retryLimit: 0,
    expireInSeconds,
    ...(d.nextAttemptAt && { startAfter: d.nextAttemptAt }),
  }));
  await app.jobs.insert(DELIVERY_QUEUE, jobs, { tx });
}
