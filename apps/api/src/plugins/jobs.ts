import type { Db as Drizzle } from '@cairn/db/client';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Job, type JobInsert, PgBoss, type SendOptions } from 'pg-boss';
import { inTransaction, jobsDatabase } from './jobs-database.ts';
import { moveLegacyJobs, setAsideLegacySchema } from './jobs-legacy.ts';

/** One kind of background job (decision 079): its queue, its schedule and its worker. */
export interface JobKind<T extends object> {
  /** A pg-boss cron expression: one job on that schedule, queued where workers run. */
  cron?: string;
  /**
   * Where workers run (not ROLE=api): `handle` gets each fetched batch (up to `batchSize` jobs) at
   * once, so it can do their work in fewer statements; `loops` independent loops fetch side by side.
   */
  work?: { batchSize: number; loops?: number; handle(jobs: Job<T>[]): Promise<unknown> };
}

/** Where a job is queued: in `tx`, it commits with that transaction's rows, or not at all (an outbox). */
export interface QueueOptions {
  tx?: Drizzle | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: {
      boss: PgBoss;
      /** True where this process runs workers (ROLE=all or worker). */
      runsWorkers: boolean;
      /**
       * Defines a kind of job at start, in every role: its queue is made then, never lazily inside a
       * caller's transaction (which on PGlite's one connection would wait for that transaction).
       */
      define<T extends object>(queue: string, kind: JobKind<T>): Promise<void>;
      /** Queues a job of a defined kind. */
      send<T extends object>(
        queue: string,
        data: T,
        options?: SendOptions & QueueOptions,
      ): Promise<string | null>;
      /** Queues several jobs of a defined kind in one statement. */
      insert<T extends object>(queue: string, jobs: JobInsert<T>[], options?: QueueOptions): Promise<void>;
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

/**
 * How often an idle worker looks for jobs. On PGlite no other process can queue one (the data dir
 * is locked to this process): every job this process sends wakes its queue's workers itself (at
 * its `startAfter`), so polling is only the backstop for what pg-boss queues on its own (cron jobs,
 * retries). Its 12 queues polled every 0.5 s were ~24 statements a second on the one connection
 * answers wait for (decision 084). PostgreSQL keeps the short poll: other processes send jobs.
 */
const POLL_SECONDS = { pglite: 5, postgres: 0.5 } as const;

/** Milliseconds until a job's `startAfter` (seconds from now, or a date), 0 when already due. */
function dueInMs(startAfter: number | string | Date | undefined): number {
  if (startAfter === undefined) return 0;
  if (typeof startAfter === 'number') return startAfter * 1000;
  return Math.max(0, new Date(startAfter).getTime() - Date.now());
}

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
  const defined = new Set<string>();
  function definedQueue(queue: string) {
    if (!defined.has(queue)) throw new Error(`no job kind "${queue}" is defined (app.jobs.define)`);
  }
  const pglite = app.database.kind === 'pglite';
  /** This process's workers of each queue, woken when it sends that queue a job (PGlite). */
  const workers = new Map<string, string[]>();
  const wakeTimers = new Set<NodeJS.Timeout>();
  /**
   * Wakes the queue's workers when the job is due. A job sent in a transaction is fetched after it
   * commits: on PGlite the fetch waits for the transaction holding the one connection.
   */
  function wake(queue: string, dueMs: number) {
    if (!pglite || !workers.has(queue)) return;
    const notify = () => {
      for (const id of workers.get(queue) ?? []) boss.notifyWorker(id);
    };
    if (dueMs <= 0) return notify();
    // Later than the backstop poll: that poll fetches it.
    if (dueMs > POLL_SECONDS.pglite * 1000) return;
    const timer = setTimeout(() => {
      wakeTimers.delete(timer);
      notify();
    }, dueMs);
    timer.unref();
    wakeTimers.add(timer);
  }
  async function work<T extends object>(
    queue: string,
    batchSize: number,
    handle: (jobs: Job<T>[]) => Promise<unknown>,
  ) {
    let workerId: string | undefined;
    workerId = await boss.work<T>(
      queue,
      { pollingIntervalSeconds: POLL_SECONDS[app.database.kind], batchSize },
      async (jobs) => {
        await handle(jobs);
        // A full batch means more are likely waiting: pg-boss would otherwise sleep out the rest
        // of its polling interval, capping a worker at one batch per interval.
        if (workerId && jobs.length === batchSize) boss.notifyWorker(workerId);
      },
    );
    workers.set(queue, [...(workers.get(queue) ?? []), workerId]);
  }
  app.decorate('jobs', {
    boss,
    runsWorkers: opts.runWorkers,
    async define(queue, kind) {
      await ensureQueue(queue);
      defined.add(queue);
      if (!opts.runWorkers) return;
      if (kind.cron) await boss.schedule(queue, kind.cron);
      if (!kind.work) return;
      for (let i = 0; i < (kind.work.loops ?? 1); i++)
        await work(queue, kind.work.batchSize, kind.work.handle);
    },
    async send(queue, data, { tx, ...options } = {}) {
      definedQueue(queue);
      const id = await boss.send(queue, data, tx ? { ...options, db: inTransaction(tx) } : options);
      wake(queue, dueInMs(options.startAfter));
      return id;
    },
    async insert(queue, jobs, { tx } = {}) {
      definedQueue(queue);
      await boss.insert(queue, jobs, tx ? { db: inTransaction(tx) } : {});
      if (jobs.length) wake(queue, Math.min(...jobs.map((job) => dueInMs(job.startAfter))));
    },
    drain: stop,
  });
  app.addHook('onClose', async () => {
    for (const timer of wakeTimers) clearTimeout(timer);
    await stop(5000);
  });
});
