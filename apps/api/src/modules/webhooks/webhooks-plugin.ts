import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { deliverWebhook } from './deliver-webhook.ts';
import { DEFAULT_DELIVERY_SETTINGS, type DeliverySettings } from './delivery-settings.ts';
import { subscribeWebhooks } from './product-webhooks.ts';
import { DELIVERY_QUEUE, type DeliveryJob } from './queue-deliveries.ts';
import webhookRoutes from './routes.ts';
import { sweepDeliveries } from './sweep-deliveries.ts';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: {
      /** Read at every attempt: a test may change them on the running app. */
      settings: DeliverySettings;
      /** Seals and opens signing secrets (they must be usable, so they are encrypted, not hashed). */
      /**
       * When an attempt happens, as its signature and the failure window see it (read at every
       * attempt: a test moves it instead of waiting); the schedule itself is the database's time.
       */
      clock: Clock;
    };
  }
}

/** Deliveries a worker fetches at once. */
const BATCH_SIZE = 10;
/** Attempts this process runs side by side; a slow receiver holds one of them, never the queue. */
const MAX_IN_FLIGHT = 50;

/**
 * Outbound webhooks (decision 046): the owner's API, the delivery workers and the sweep that
 * re-queues deliveries whose job was lost. `settings` defaults to the product's schedule.
 */
export default fp(async function webhooksPlugin(
  app: FastifyInstance,
  opts: { settings?: Partial<DeliverySettings> },
) {
  app.decorate('webhooks', {
    settings: { ...DEFAULT_DELIVERY_SETTINGS, ...opts.settings },
    clock: systemClock,
  });
  subscribeWebhooks(app);
  await app.register(webhookRoutes);
  // A job only says "look at this row now": it is done once its attempt has started. Waiting for
  // the attempt would hold back every later delivery behind a receiver that takes its whole
  // timeout. An attempt cut short by a crash keeps its lease, and the sweep queues it again.
  const inFlight = new Set<Promise<void>>();
  await app.jobs.define<DeliveryJob>(DELIVERY_QUEUE, {
    work: {
      batchSize: BATCH_SIZE,
      async handle(jobs) {
        for (const job of jobs) {
          const attempt: Promise<void> = deliverWebhook(app, job.data.deliveryId)
            .catch((err: unknown) =>
              app.log.error({ err, deliveryId: job.data.deliveryId }, 'webhook delivery failed'),
            )
            .finally(() => inFlight.delete(attempt));
          inFlight.add(attempt);
        }
        // pg-boss fetches the next batch when this returns: only once there is room for it.
        while (inFlight.size > MAX_IN_FLIGHT - BATCH_SIZE) await Promise.race(inFlight);
      },
    },
  });
  if (!app.jobs.runsWorkers) return;

  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const sweep = (all: boolean) => {
    running = sweepDeliveries(app, { all }).catch((err: unknown) =>
      app.log.error({ err }, 'webhook sweep failed'),
    );
    return running;
  };
  const schedule = () => {
    if (closed) return;
    timer = setTimeout(async () => {
      await sweep(false);
      schedule();
    }, app.webhooks.settings.sweepIntervalMs);
    timer.unref();
  };
  // With PGlite the data directory is locked to this process: leases and active jobs found at
  // start-up belong to a process that died, so their deliveries are queued again at once.
  app.addHook('onReady', async () => {
    await sweep(app.database.kind === 'pglite');
    schedule();
  });
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(timer);
    await running;
    await Promise.all(inFlight);
  });
});
