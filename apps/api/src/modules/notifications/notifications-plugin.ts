import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { EMAIL_QUEUE, type EmailJob, runEmailJobs } from './deliver-email.ts';
import { deliverNotificationPush, PUSH_QUEUE, type PushJob } from './deliver-push.ts';
import { deliverNotificationSlack, SLACK_QUEUE, type SlackJob } from './deliver-slack.ts';
import { DIGEST_CRON, DIGEST_QUEUE, sendDueDigests } from './digest.ts';
import { subscribeNotifications } from './product-notifications.ts';
import notificationRoutes from './routes.ts';
import { sweepEmails } from './sweep-emails.ts';
import unsubscribeRoutes from './unsubscribe-routes.ts';
import { createUnsubscribeTokens, type UnsubscribeTokens } from './unsubscribe-token.ts';
import { loadOrCreateVapidKeys, type VapidKeys } from './vapid-keys.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: {
      /** Read at every use: a test replaces it on the running app. */
      clock: Clock;
      unsubscribeTokens: UnsubscribeTokens;
      /** The VAPID key pair, generated into DATA_DIR on first use. */
      vapid(): VapidKeys;
    };
  }
}

/** Notifications (decision 049): profile, bell, unsubscribe, and the e-mail, push, Slack and digest workers. */
export default fp(async function notificationsPlugin(app: FastifyInstance) {
  let vapid: VapidKeys | undefined;
  app.decorate('notifications', {
    clock: systemClock,
    unsubscribeTokens: createUnsubscribeTokens(app.config.secretKey),
    vapid: () => {
      vapid ??= loadOrCreateVapidKeys(app.config.dataDir);
      return vapid;
    },
  });
  subscribeNotifications(app);
  await app.register(notificationRoutes);
  await app.register(unsubscribeRoutes);
  // One job per batch for push and Slack: a failure fails (and retries) that notification only.
  await app.jobs.define<PushJob>(PUSH_QUEUE, {
    work: {
      batchSize: 1,
      handle: (jobs) => Promise.all(jobs.map((job) => deliverNotificationPush(app, job.data.notificationId))),
    },
  });
  await app.jobs.define(DIGEST_QUEUE, {
    cron: DIGEST_CRON,
    work: { batchSize: 1, handle: () => sendDueDigests(app) },
  });
  await app.jobs.define<SlackJob>(SLACK_QUEUE, {
    work: {
      batchSize: 1,
      handle: (jobs) =>
        Promise.all(
          jobs.map((job) => deliverNotificationSlack(app, job.data.notificationId, job.retryCount > 0)),
        ),
    },
  });
  await app.jobs.define<EmailJob>(EMAIL_QUEUE, {
    work: { batchSize: 5, handle: (jobs) => runEmailJobs(app, jobs) },
  });
  if (!app.jobs.runsWorkers) return;

  // E-mails whose job was lost (a crash between storing and queueing, or holding it): decision 052.
  let running: Promise<unknown> = Promise.resolve();
  const sweep = (all: boolean) => {
    running = sweepEmails(app, { all }).catch((err: unknown) =>
      app.log.error({ err }, 'e-mail sweep failed'),
    );
    return running;
  };
  const timer = setInterval(() => void sweep(false), EMAIL_SWEEP_MS);
  timer.unref();
  // With PGlite the data directory is this process's alone: a job left active belongs to a dead one.
  app.addHook('onReady', async () => {
    await sweep(app.database.kind === 'pglite');
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
});

/** How often e-mails without a job are looked for. */
const EMAIL_SWEEP_MS = 60_000;
