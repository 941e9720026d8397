import type { Ctx } from '../../lib/ctx.ts';
import { DELIVERY_QUEUE, queueDeliveries } from './queue-deliveries.ts';

/** Finished deliveries (and their attempts) are kept this long for the log. */
export const DELIVERY_RETENTION_DAYS = 30;

/**
 * Queues again the pending deliveries that have no job to wake them: the job was fetched by a
 * worker that died (kill -9), or the process stopped between committing a delivery and queueing
 * its job. A delivery whose attempt is in flight holds a lease (`locked_until`) and is left alone
 * until the lease runs out. With `all` (at start on PGlite, where no other process can be
 * working), every lease and every `active` job is known dead. Returns how many were queued.
 */
export async function sweepDeliveries(app: Ctx, options: { all?: boolean } = {}): Promise<number> {
  const all = options.all === true;
  const { rows } = await app.database.query<{ id: number; next_attempt_at: string | Date }>(
    `UPDATE webhook_deliveries d
        SET updated_at = now(),
            lease = CASE WHEN $1::boolean THEN NULL ELSE d.lease END,
            locked_until = CASE WHEN $1::boolean THEN NULL ELSE d.locked_until END
      WHERE d.id IN (
        SELECT d2.id FROM webhook_deliveries d2
         WHERE d2.status = 'pending'
           AND ($1::boolean OR d2.next_attempt_at < now() - make_interval(secs => $2))
           AND ($1::boolean OR d2.locked_until IS NULL OR d2.locked_until < now())
           AND NOT EXISTS (
             SELECT 1 FROM pgboss.job j
              WHERE j.name = $3
                AND (j.state IN ('created', 'retry') OR (j.state = 'active' AND NOT $1::boolean))
                AND (j.data->>'deliveryId')::int = d2.id)
         ORDER BY d2.next_attempt_at
         LIMIT 500)
      RETURNING d.id, d.next_attempt_at`,
    [all, app.webhooks.settings.sweepGraceMs / 1000, DELIVERY_QUEUE],
  );
  await queueDeliveries(
    app,
    rows.map((r) => ({ id: r.id, nextAttemptAt: new Date(r.next_attempt_at) })),
  );
  if (Math.random() < 0.05 || all) {
    await app.database.query(
      `DELETE FROM webhook_deliveries
        WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)`,
      [DELIVERY_RETENTION_DAYS],
    );
  }
  if (rows.length) app.log.warn({ count: rows.length }, 'webhook deliveries without a job were queued again');
  return rows.length;
}
