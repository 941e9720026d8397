import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pruneEvents } from './accept-event.ts';
import { REPLY_QUEUE, type ReplyJob } from './reply-job.ts';
import integrationRoutes from './routes.ts';
import { sendReply } from './send-reply.ts';
import slackRoutes from './slack-routes.ts';
import { unsetTelegramWebhooks } from './telegram-connect.ts';
import { createTelegramPoller, DEFAULT_POLLER_SETTINGS, type PollerSettings } from './telegram-poller.ts';
import telegramRoutes from './telegram-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    integrations: {
      /** Seals and opens bot tokens and secrets (they must be usable, so encrypted, not hashed). */
      /** A Telegram bot was connected for polling: claim it now rather than at the next scan. */
      wakePoller(): void;
    };
  }
}

/** Replies answered side by side by one worker (each mostly waits for its answer). */
const BATCH_SIZE = 16;
const PRUNE_INTERVAL_MS = 60 * 60_000;

/**
 * Chat integrations (decision 047): the owner's API, Slack's and Telegram's inbound endpoints, the
 * reply workers and the Telegram poller. `poller` settings default to the product's.
 */
export default fp(async function integrationsPlugin(
  app: FastifyInstance,
  opts: { poller?: Partial<PollerSettings> },
) {
  const poller = app.jobs.runsWorkers
    ? createTelegramPoller(app, { ...DEFAULT_POLLER_SETTINGS, ...opts.poller })
    : null;
  app.decorate('integrations', {
    wakePoller: () => poller?.wake(),
  });
  app.decorateRequest('integration', null);
  app.events.onDurable('applications.deleted', ({ telegramWebhooks }) =>
    unsetTelegramWebhooks(app, telegramWebhooks),
  );
  await app.register(integrationRoutes);
  await app.register(slackRoutes);
  await app.register(telegramRoutes);
  await app.jobs.define<ReplyJob>(REPLY_QUEUE, {
    work: {
      batchSize: BATCH_SIZE,
      async handle(jobs) {
        // Each failed reply fails its own job, which pg-boss retries (the answer is not asked
        // again); the rest of the batch completes.
        await Promise.all(
          jobs.map((job) =>
            // A job claimed before (retried, or taken again after its process died) may have posted.
            sendReply(app, job.data, job.retryCount > 0).catch(async (err: unknown) => {
              app.log.warn({ err, job: job.id }, 'integration reply failed');
              await app.jobs.boss.fail(REPLY_QUEUE, job.id, { error: String(err) });
            }),
          ),
        );
      },
    },
  });
  if (!poller) return;

  const prune = setInterval(() => {
    pruneEvents(app).catch((err: unknown) => app.log.error({ err }, 'pruning integration events failed'));
  }, PRUNE_INTERVAL_MS);
  prune.unref();
  app.addHook('onReady', async () => poller.start());
  app.addHook('preClose', async () => {
    clearInterval(prune);
    await poller.close();
  });
});
