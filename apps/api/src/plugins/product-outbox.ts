import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The crash backup of the product events' outbox (decision 085): a sweep every minute where workers run. */
export const OUTBOX_SWEEP_QUEUE = 'product-outbox-sweep';
const OUTBOX_SWEEP_CRON = '* * * * *';
/**
 * A row younger than this may still be on its way in the process that wrote it (its dispatcher
 * delivers and deletes it within milliseconds unless a subscriber is slow): the sweep leaves it.
 */
export const OUTBOX_GRACE_MS = 30_000;

/**
 * Delivers what a process that died left in the outbox: at start (on PGlite everything, as no other
 * process can hold the data dir; on PostgreSQL rows past the grace period) and every minute; and
 * lets the dispatcher finish before the process stops.
 */
export default fp(async function productOutboxPlugin(app: FastifyInstance) {
  const sweep = async (graceMs: number) => {
    try {
      const delivered = await app.events.sweep(graceMs);
      if (delivered)
        app.log.info({ delivered }, 'delivered product events a stopped process left in the outbox');
    } catch (err) {
      app.log.error({ err }, 'sweeping the product events outbox failed');
    }
  };
  await app.jobs.define(OUTBOX_SWEEP_QUEUE, {
    cron: OUTBOX_SWEEP_CRON,
    work: { batchSize: 1, handle: () => sweep(OUTBOX_GRACE_MS) },
  });
  // Awaited: the process serves requests once a dead process's events are told (usually none, one query).
  if (app.jobs.runsWorkers)
    app.addHook('onReady', () => sweep(app.database.kind === 'pglite' ? 0 : OUTBOX_GRACE_MS));
  app.lifecycle.onDrain(async (timeoutMs) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([app.events.settled(), late]);
    clearTimeout(timer);
  });
  // Before pg-boss stops and the database closes: the subscribers queue jobs and write rows.
  app.addHook('preClose', async () => {
    await app.events.settled();
  });
  app.addHook('onClose', async () => {
    await app.events.settled();
  });
});
