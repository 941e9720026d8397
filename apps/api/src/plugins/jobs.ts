import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Job, PgBoss, type SendOptions, type WorkOptions } from 'pg-boss';
import { jobsDatabase } from './jobs-database.ts';
import { moveLegacyJobs, setAsideLegacySchema } from './jobs-legacy.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: {
      boss: PgBoss;
      /** True where this process runs workers (ROLE=all or worker). */
      runsWorkers: boolean;
      /** Queues a job; the queue is created on first use. */
      send<T extends object>(queue: string, data: T, options?: SendOptions): Promise<string | null>;
      /**
       * Registers a worker, given each fetched batch (up to `batchSize` jobs) at once, so it can do
       * their work in fewer statements; a no-op in processes that run no workers (ROLE=api).
       */
      work<T extends object>(
        queue: string,
        options: WorkOptions,
        handler: (jobs: Job<T>[]) => Promise<void>,
      ): Promise<void>;
      /**
       * Fetches no more jobs and waits up to `timeoutMs` for those under way; pg-boss then fails the
       * rest, which their retry policy or their row's lease and sweep bring back (decision 052).
       */
      drain(timeoutMs: number): Promise<void>;
    };
  }
}

/**
 * For a job that talks to a third party while a person waits for it (a Slack or Telegram reply, a
 * Slack or push notification): its worker refreshes it every 10 s, so a job whose process died
 * (kill -9, the OOM killer) is failed, and so retried, at the next supervision pass after 20 s
 * without a refresh (about a minute) instead of at pg-boss's default expiry, 15 minutes.
 */
export const HEARTBEAT = { heartbeatSeconds: 20 } as const;

/** pg-boss on the same database as everything else (PGlite or PostgreSQL). */
export default fp(async function jobsPlugin(app: FastifyInstance, opts: { runWorkers: boolean }) {
  await setAsideLegacySchema(app.database);
  const boss = new PgBoss({
    db: jobsDatabase(app.database),
    // Maintenance and cron timers only run where workers run.
    supervise: opts.runWorkers,
    schedule: opts.runWorkers,
  });
  boss.on('error', (err) => app.log.error({ err }, 'job queue error'));
  await boss.start();
  // Our connection is closed by its owner: pg-boss must leave it open (jobs are still sent while
  // the answers under way finish). A second stop, after a drain, does nothing.
  const stop = (timeout: number) => boss.stop({ graceful: true, timeout, close: false });
  const created = new Set<string>();
  async function ensureQueue(name: string) {
    if (created.has(name)) return;
    await boss.createQueue(name);
    created.add(name);
  }
  const moved = await moveLegacyJobs(app.database, async (queue, jobs) => {
    await ensureQueue(queue);
    await boss.insert(queue, jobs);
  });
  if (moved) app.log.info({ moved }, 'moved the jobs of the pg-boss 10 schema to pg-boss 12');
  app.decorate('jobs', {
    boss,
    runsWorkers: opts.runWorkers,
    async send(queue, data, options = {}) {
      await ensureQueue(queue);
      return boss.send(queue, data, options);
    },
    async work(queue, options, handler) {
      if (!opts.runWorkers) return;
      await ensureQueue(queue);
      const workOptions = { pollingIntervalSeconds: 0.5, ...options };
      let workerId: string | undefined;
      workerId = await boss.work(queue, workOptions, async (jobs) => {
        await handler(jobs as Job<never>[]);
        // A full batch means more are likely waiting: pg-boss would otherwise sleep out the rest
        // of its polling interval, capping a worker at one batch per interval.
        if (workerId && jobs.length === (workOptions.batchSize ?? 1)) boss.notifyWorker(workerId);
      });
    },
    drain: stop,
  });
  app.addHook('onClose', async () => {
    await stop(5000);
  });
});
