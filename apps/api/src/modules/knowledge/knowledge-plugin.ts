import type { Db } from '@cairn/db/client';
import { webhooks } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { systemClock } from '../../lib/clock.ts';
import { inTransaction } from '../../plugins/jobs-database.ts';
import { createFileStore, type FileStore } from '../../rag/file-store.ts';
import {
  HEARTBEAT_MS,
  handBackItems,
  INGEST_QUEUE,
  type IngestDeps,
  type IngestJob,
  type ItemOwner,
  ingestItems,
  recoverStalledItems,
} from '../../rag/ingest-item.ts';
import { ParseWorkers } from '../../rag/parse/parse-workers.ts';
import { REFRESH_CRON, REFRESH_QUEUE, runDueChecks } from '../../rag/refresh-items.ts';
import { notifyCheckFailing } from '../notifications/product-notifications.ts';
import { emitKnowledgeItemEnded } from '../webhooks/product-events.ts';
import { createIntakeGate, type IntakeGate, OPEN_GATE } from './intake-gate.ts';
import { publishSiteItem } from './publish-item.ts';
import type { ItemRow } from './queue-items.ts';

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
  let queueReady: Promise<void> | undefined;
  const ensureQueue = () => {
    queueReady ??= app.jobs.boss.createQueue(INGEST_QUEUE).catch((error: unknown) => {
      queueReady = undefined;
      throw error;
    });
    return queueReady;
  };

  async function enqueue(itemIds: number[], options: { tx?: Db; startAfterSeconds?: number } = {}) {
    if (itemIds.length === 0) return;
    await ensureQueue();
    const startAfter = options.startAfterSeconds
      ? new Date(Date.now() + options.startAfterSeconds * 1000).toISOString()
      : undefined;
    const jobs = itemIds.map((itemId) => ({
      data: { itemId } satisfies IngestJob,
      ...JOB_OPTIONS,
      ...(startAfter && { startAfter }),
    }));
    const tx = options.tx;
    await app.jobs.boss.insert(INGEST_QUEUE, jobs, tx ? { db: inTransaction(tx) } : {});
  }

  const parser = new ParseWorkers(app.config.parseLimits);
  app.addHook('onClose', () => parser.close());
  const deps: IngestDeps = {
    database: app.database,
    files,
    fetch: {
      allowLoopback: app.config.allowPrivateUrls,
      userAgent: `CairnBot/1.0 (knowledge-base fetcher; +${app.config.publicUrl})`,
      maxBytes: Math.max(app.config.maxUploadBytes, 1024 * 1024),
    },
    parse: (input) => parser.parse(input),
    publish: (owner, row, deleted) => publishSiteItem(app, owner, row, deleted),
    checkFailing: (owner, row, reason) => notifyCheckFailing(app, owner, row, reason),
    clock: systemClock,
    ended: (owner, rows) => itemsEnded(app, owner, rows),
    enqueue: (itemIds, options) => enqueue(itemIds, options ?? {}),
    log: app.log,
    waitForRequests: intake.idle,
    leases: new Set(),
  };
  app.decorate('knowledge', { files, enqueue, deps, intake });

  // Created up front in every role: creating it lazily inside an item transaction would wait for
  // that very transaction on PGlite's single connection (ROLE=api deadlocked that way).
  await ensureQueue();
  await app.jobs.boss.createQueue(REFRESH_QUEUE);
  if (!app.jobs.runsWorkers) return;
  // Scheduled re-sync: every minute one worker checks the due items (claims make runs in several
  // processes safe). Read the clock at each use: tests replace `deps.clock` on the running app.
  await app.jobs.boss.schedule(REFRESH_QUEUE, REFRESH_CRON);
  await app.jobs.work(REFRESH_QUEUE, { batchSize: 1 }, async () => {
    await runDueChecks(deps);
  });
  for (let i = 0; i < WORKER_LOOPS[app.database.kind]; i++) {
    await app.jobs.work<IngestJob>(INGEST_QUEUE, { batchSize: JOBS_PER_FETCH }, (jobs) =>
      ingestItems(
        deps,
        jobs.map((job) => job.data.itemId),
      ),
    );
  }
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

/**
 * Tells the owner's webhooks (and, for a failed item, the owner) that items' ingestion ended. A
 * ready item is told only to webhooks: when the owner has no enabled webhook at all (one query for
 * a batch), there is nobody to tell, and the lookup of matching webhooks per item (a statement of
 * ~0.35 ms on PGlite, 1.8 s of SQL for SciFact's 5,183 abstracts) is skipped. Decision 044.
 */
async function itemsEnded(app: FastifyInstance, owner: ItemOwner, rows: ItemRow[]): Promise<void> {
  let webhooksMayListen = true;
  if (rows.some((row) => row.status === 'ready')) {
    try {
      const [webhook] = await app.db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(and(eq(webhooks.ownerId, owner.ownerId), eq(webhooks.enabled, true)))
        .limit(1);
      webhooksMayListen = webhook !== undefined;
    } catch (err) {
      app.log.warn({ err }, 'looking up webhooks failed; telling each item to them');
    }
  }
  for (const row of rows) {
    if (row.status === 'failed' || webhooksMayListen) await emitKnowledgeItemEnded(app, owner, row);
  }
}
