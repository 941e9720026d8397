import type { Db } from '@cairn/db/client';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { systemClock } from '../../lib/clock.ts';
import { createFileStore, type FileStore } from '../../rag/file-store.ts';
import {
  HEARTBEAT_MS,
  handBackItems,
  INGEST_QUEUE,
  type IngestDeps,
  type IngestJob,
  ingestItems,
  recoverStalledItems,
} from '../../rag/ingest-item.ts';
import { ParseWorkers } from '../../rag/parse/parse-workers.ts';
import { REFRESH_CRON, REFRESH_QUEUE, runDueChecks } from '../../rag/refresh-items.ts';
import { createIntakeGate, type IntakeGate, OPEN_GATE } from './intake-gate.ts';
import { publishSiteItem } from './publish-item.ts';
import { removeUnusedFiles } from './remove-unused-files.ts';

declare module 'fastify' {
  interface FastifyInstance {
    knowledge: {
      files: FileStore;
      /**
       * Queues ingestion jobs for items. Given `tx`, the jobs are inserted in that transaction,
       * so items and their jobs commit (or vanish) together.
       */
      enqueue(itemIds: number[], options?: { tx?: Db; startAfterSeconds?: number }): Promise<void>;
      deps: IngestDeps;
      /** Requests adding items run through it, ahead of the ingestion workers' statements. */
      intake: IntakeGate;
    };
  }
}

/** Jobs that die with their worker are recovered by our heartbeat; pg-boss must not also retry them. */
const JOB_OPTIONS = { retryLimit: 0, expireInSeconds: 60 * 60 } as const;
/**
 * Independent worker loops per process: items are ingested side by side. PostgreSQL overlaps
 * their commits (fsync waits); PGlite has one connection, where more loops only add contention.
 */
const WORKER_LOOPS = { postgres: 4, pglite: 2 } as const;

/**
 * Jobs a worker loop fetches (and small items it indexes in one statement). On PGlite one such
 * statement holds the main thread: 20 SciFact abstracts are tens of milliseconds, short enough for
 * requests to get in between.
 */
const JOBS_PER_FETCH = 20;
/** The longest a worker statement waits for requests adding items (PGlite). */
const INTAKE_MAX_WAIT_MS = 2000;

/** The knowledge pipeline's wiring: file store, job queueing, the ingestion workers and the stall reaper. */
export default fp(async function knowledgePlugin(app: FastifyInstance) {
  const files = createFileStore(app.config.dataDir);
  const intake = app.database.kind === 'pglite' ? createIntakeGate(INTAKE_MAX_WAIT_MS) : OPEN_GATE;
  async function enqueue(itemIds: number[], options: { tx?: Db; startAfterSeconds?: number } = {}) {
    if (itemIds.length === 0) return;
    const startAfter = options.startAfterSeconds
      ? new Date(Date.now() + options.startAfterSeconds * 1000).toISOString()
      : undefined;
    const jobs = itemIds.map((itemId) => ({
      data: { itemId } satisfies IngestJob,
      ...JOB_OPTIONS,
      ...(startAfter && { startAfter }),
    }));
    await app.jobs.insert(INGEST_QUEUE, jobs, { tx: options.tx });
  }

  const parser = new ParseWorkers(app.config.parseLimits);
  app.addHook('onClose', () => parser.close());
  const deps: IngestDeps = {
    database: app.database,
    secrets: app.secrets,
    config: app.config,
    files,
    fetch: {
      allowLoopback: app.config.allowPrivateUrls,
      userAgent: `CairnBot/1.0 (knowledge-base fetcher; +${app.config.publicUrl})`,
      maxBytes: Math.max(app.config.maxUploadBytes, 1024 * 1024),
    },
    parse: (input) => parser.parse(input),
    publish: (owner, row, deleted) => publishSiteItem(app, owner, row, deleted),
    clock: systemClock,
    events: app.events,
    enqueue: (itemIds, options) => enqueue(itemIds, options ?? {}),
    log: app.log,
    waitForRequests: intake.idle,
    leases: new Set(),
  };
  app.decorate('knowledge', { files, enqueue, deps, intake });
  app.events.onDurable('applications.deleted', ({ files: paths }) => removeUnusedFiles(app, paths));

  // Scheduled re-sync: every minute one worker checks the due items (claims make runs in several
  // processes safe). Read the clock at each use: tests replace `deps.clock` on the running app.
  await app.jobs.define(REFRESH_QUEUE, {
    cron: REFRESH_CRON,
    work: { batchSize: 1, handle: () => runDueChecks(deps) },
  });
  await app.jobs.define<IngestJob>(INGEST_QUEUE, {
    work: {
      batchSize: JOBS_PER_FETCH,
      loops: WORKER_LOOPS[app.database.kind],
      handle: (jobs) =>
        ingestItems(
          deps,
          jobs.map((job) => job.data.itemId),
        ),
    },
  });
  if (!app.jobs.runsWorkers) return;
  // With PGlite the data directory is locked to this process: anything `processing` at start-up
  // was left by a process that died, so it is recovered at once instead of after the stall delay.
  await recoverStalledItems(deps, { all: app.database.kind === 'pglite' }).catch((err: unknown) =>
    app.log.error({ err }, 'knowledge recovery failed'),
  );
  const reaper = setInterval(() => {
    recoverStalledItems(deps).catch((err: unknown) => app.log.error({ err }, 'knowledge recovery failed'));
  }, HEARTBEAT_MS * 3);
  reaper.unref();
  // After the drain (the jobs had their time to finish): what is still ingesting goes back to the
  // queue now, rather than when its heartbeat is found stale.
  app.addHook('preClose', async () => {
    clearInterval(reaper);
    const handedBack = await handBackItems(deps, [...deps.leases]).catch((err: unknown) => {
      app.log.error({ err }, 'handing knowledge items back failed');
      return 0;
    });
    if (handedBack) app.log.info({ handedBack }, 'knowledge items handed back');
  });
});
