import { createHash, randomUUID } from 'node:crypto';
import type { TLlmModel } from '@cairn/contracts/applications';
import type { Db } from '@cairn/db/client';
import { applications, knowledgeItems } from '@cairn/db/schema';
import { and, eq, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import { AppError } from '../lib/app-error.ts';
import type { ModelCtx } from '../lib/ctx.ts';
import type { ItemOwner, ProductEventBus } from '../lib/product-events.ts';
import { addCrawledPages, sameSiteLinks } from './crawl-links.ts';
import { resolveEmbedder } from './embed.ts';
import { FetchError, type FetchedPage, fetchUrl } from './fetch-url.ts';
import type { FileStore } from './file-store.ts';
import {
  deleteItemChunks,
  indexItem,
  indexReadyItems,
  prepareChunks,
  type ReadyItemInput,
} from './index-chunks.ts';
import type { ParseInput, ParseResult } from './parse/parse-document.ts';
import { ParseError } from './parse/parse-error.ts';
import { politely } from './polite-fetch.ts';
import { syncSitePages } from './site-pages.ts';
import { siteRules } from './site-rules.ts';
import { readSitemap } from './sitemap.ts';

export const INGEST_QUEUE = 'knowledge-ingest';

/** How often an item may be started (crashes and transient errors count) before it fails for good. */
export const MAX_INGEST_ATTEMPTS = 3;
/** The processing worker bumps `heartbeat_at` this often… */
export const HEARTBEAT_MS = 5_000;
/** …so an item whose heartbeat is older than this has lost its worker. */
export const STALL_AFTER_SECONDS = 45;

type ItemRow = typeof knowledgeItems.$inferSelect;

/** The app's collaborators a worker needs (`ModelCtx`: the database, the secret box, the provider policy) and the pipeline's own parts. */
export interface IngestDeps extends ModelCtx {
  files: FileStore;
  fetch: { allowLoopback: boolean; userAgent: string; maxBytes: number };
  /** Parses a file within the limits of one file, in a worker process (ParseWorkers). */
  parse(input: ParseInput): Promise<ParseResult>;
  /** Publishes the row as a `kb_updates` event to the application's owner (`deleted`: it is gone). */
  publish(owner: ItemOwner, row: ItemRow, deleted?: boolean): Promise<void>;
  /** Time as checks and schedules see it; tests replace it to run the schedule. */
  clock: () => Date;
  /**
   * The product's events: an item's ingestion ending (`knowledge.items.ended`) and its scheduled
   * checks starting to fail (`knowledge.check.failing`) are written with the item's change.
   */
  events: Pick<ProductEventBus, 'transaction' | 'written'>;
  /** Queues (again) the ingestion of items; with `tx`, inside that transaction. */
  enqueue(itemIds: number[], options?: { startAfterSeconds?: number; tx?: Db }): Promise<void>;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Resolves when a worker may run its next statement (requests adding knowledge go first). */
  waitForRequests(): Promise<void>;
  /** The leases this process's workers hold now: handed back when the process stops (`handBackItems`). */
  leases: Set<string>;
}

/** The job's payload: only the id; everything else is read fresh from the row. */
export interface IngestJob {
  itemId: number;
}

/**
 * Runs one item through the pipeline (DESIGN §5): store original → parse → chunk/embed/index
 * (`indexItem`, one transaction) → `ready`, or `failed` with a reason a person understands.
 *
 * Crash safety: the item is claimed only while `queued`, under a fresh lease; every later write
 * is conditional on that lease, so a worker that lost its claim (stalled, reaped, the item was
 * deleted or re-synced) changes nothing. The index is written in one transaction that locks the
 * item row, so a deletion either waits and cascades to the new chunks or makes the insert fail:
 * never orphan chunks.
 */
export async function ingestItem(deps: IngestDeps, itemId: number): Promise<void> {
  const { db } = deps.database;
  const lease = randomUUID();
  await deps.waitForRequests();
  const [claimed] = await db
    .update(knowledgeItems)
    .set({
      status: 'processing',
      progress: 0,
      error: null,
      lease,
      heartbeatAt: sql`now()`,
      attempts: sql`${knowledgeItems.attempts} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(knowledgeItems.id, itemId), eq(knowledgeItems.status, 'queued')))
    .returning();
  // Deleted, or already taken by another job for the same item: nothing to do.
  if (!claimed) return;
  deps.leases.add(lease);
  try {
    await ingestClaimedItem(deps, claimed, lease);
  } finally {
    deps.leases.delete(lease);
  }
}

async function ingestClaimedItem(deps: IngestDeps, claimed: ItemRow, lease: string): Promise<void> {
  const { db } = deps.database;
  const itemId = claimed.id;
  const [app] = await db
    .select({ uuid: applications.uuid, ownerId: applications.ownerId, llmModels: applications.llmModels })
    .from(applications)
    .where(eq(applications.id, claimed.applicationId));
  if (!app) return;
  const owner = { ownerId: app.ownerId, applicationUuid: app.uuid };
  await deps.publish(owner, claimed);

  const mine = and(eq(knowledgeItems.id, itemId), eq(knowledgeItems.lease, lease));
  const heartbeat = setInterval(() => {
    db.update(knowledgeItems)
      .set({ heartbeatAt: sql`now()` })
      .where(mine)
      .catch((err: unknown) => deps.log.warn({ err, itemId }, 'knowledge heartbeat failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  type Values = Partial<typeof knowledgeItems.$inferInsert>;
  /** Progress not written yet: small items finish before it is worth a write and an event. */
  let pending: Values = {};
  let lastWrite = Date.now();

  /** Writes (with anything pending) under our lease and publishes; false when the lease is gone (deleted, reaped, re-synced). */
  async function update(values: Values): Promise<boolean> {
    const written = await writeUnderLease(deps, owner, { itemId, lease }, { ...pending, ...values });
    pending = {};
    lastWrite = Date.now();
    return written;
  }

  /** Progress: written at most every 300 ms unless `now` (a value later steps read from the row). */
  async function progress(values: Values, now = false): Promise<boolean> {
    if (!now && Date.now() - lastWrite < 300) {
      pending = { ...pending, ...values };
      return true;
    }
    return update(values);
  }

  try {
    if (claimed.crawlOptions?.sitemap) {
      await importSitemap(deps, owner, claimed);
      await update({
        status: 'ready',
        progress: 100,
        chunkCount: 0,
        indexedAt: new Date(),
        lease: null,
        ...checked(deps, claimed),
      });
      return;
    }
    const source = await loadSource(deps, claimed);
    if (!(await progress({ progress: 10, ...source.store }))) return;

    const parsed = await deps.parse({
      data: source.data,
      filename: source.filename,
      mimeType: source.mimeType,
      baseUrl: source.baseUrl,
      title: source.userTitle,
    });
    // indexItem indexes the title with every chunk: a new title must be in the row first.
    const retitled = parsed.document.title !== claimed.title;
    if (
      !(await progress(
        {
          progress: 30,
          title: parsed.document.title,
          mimeType: parsed.mimeType,
          readWithOcr: parsed.document.readWithOcr ?? false,
        },
        retitled,
      ))
    )
      return;

    await deps.waitForRequests();
    const result = await indexItem(deps, {
      applicationId: claimed.applicationId,
      itemId,
      document: parsed.document,
      llmModels: app.llmModels as TLlmModel[],
      onProgress: async (fraction) => {
        await progress({ progress: 30 + Math.round(Math.min(1, Math.max(0, fraction)) * 65) });
      },
    });
    if (claimed.type === 'url' && source.baseUrl) {
      await crawl(deps, owner, claimed, sameSiteLinks(parsed.links, source.baseUrl));
    }
    const done = await update({
      status: 'ready',
      progress: 100,
      chunkCount: result.chunkCount,
      language: result.language ?? null,
      indexedAt: new Date(),
      lease: null,
      ...(claimed.type === 'url' && checked(deps, claimed)),
    });
    // Lost the lease after indexing (re-synced meanwhile): the new run rewrites the chunks.
    if (!done) return;
  } catch (error) {
    await handleFailure(deps, { itemId, lease, attempts: claimed.attempts, error, update });
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Items whose original is at most this size are ingested together (`ingestItems`): parsing and
 * chunking them takes milliseconds, so per-item statements and progress events would cost more
 * than the work. Larger files and URLs keep their own run, with progress.
 */
export const BATCHED_ITEM_BYTES = 64 * 1024;

/**
 * Ingests a batch of jobs' items. The small ones (`BATCHED_ITEM_BYTES`, not URLs) are claimed in
 * one statement under one lease, parsed one by one, and indexed and made `ready` per application
 * in one statement (`indexReadyItems`): the same guarantees as `ingestItem` (claimed only while
 * `queued`; written only under the lease; all of an item's index or none; a crash leaves them
 * `processing` for the reaper to queue again) in four statements per batch instead of four per
 * item. An item whose parsing fails fails alone; if the batch statement fails, each item is
 * indexed on its own so that one bad item cannot take the others down. The rest go through
 * `ingestItem` one by one.
 */
export async function ingestItems(deps: IngestDeps, itemIds: number[]): Promise<void> {
  const batched = await ingestSmallItems(deps, itemIds);
  for (const itemId of itemIds) if (!batched.has(itemId)) await ingestItem(deps, itemId);
}

async function ingestSmallItems(deps: IngestDeps, itemIds: number[]): Promise<Set<number>> {
  const { db } = deps.database;
  const lease = randomUUID();
  await deps.waitForRequests();
  const claimed = await db
    .update(knowledgeItems)
    .set({
      status: 'processing',
      progress: 0,
      error: null,
      lease,
      heartbeatAt: sql`now()`,
      attempts: sql`${knowledgeItems.attempts} + 1`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        inArray(knowledgeItems.id, itemIds),
        eq(knowledgeItems.status, 'queued'),
        ne(knowledgeItems.type, 'url'),
        lte(knowledgeItems.sizeBytes, BATCHED_ITEM_BYTES),
      ),
    )
    .returning();
  if (claimed.length === 0) return new Set();
  const ids = claimed.map((row) => row.id);
  deps.leases.add(lease);
  const heartbeat = setInterval(() => {
    db.update(knowledgeItems)
      .set({ heartbeatAt: sql`now()` })
      .where(and(inArray(knowledgeItems.id, ids), eq(knowledgeItems.lease, lease)))
      .catch((err: unknown) => deps.log.warn({ err, itemIds: ids }, 'knowledge heartbeat failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const apps = await db
      .select({
        id: applications.id,
        uuid: applications.uuid,
        ownerId: applications.ownerId,
        llmModels: applications.llmModels,
      })
      .from(applications)
      .where(inArray(applications.id, [...new Set(claimed.map((row) => row.applicationId))]));
    for (const app of apps) {
      const owner = { ownerId: app.ownerId, applicationUuid: app.uuid };
      const rows = claimed.filter((row) => row.applicationId === app.id);
      for (const row of rows) await deps.publish(owner, row);
      await ingestClaimed(deps, {
        owner,
        applicationId: app.id,
        llmModels: app.llmModels as TLlmModel[],
        lease,
        rows,
      });
    }
  } finally {
    clearInterval(heartbeat);
    deps.leases.delete(lease);
  }
  return new Set(ids);
}

/** Parses, indexes and readies one application's claimed small items (see `ingestItems`). */
async function ingestClaimed(
  deps: IngestDeps,
  batch: { owner: ItemOwner; applicationId: number; llmModels: TLlmModel[]; lease: string; rows: ItemRow[] },
): Promise<void> {
  const { owner, lease } = batch;
  const fail = (row: ItemRow, error: unknown) =>
    handleFailure(deps, {
      itemId: row.id,
      lease,
      attempts: row.attempts,
      error,
      update: (values) => writeUnderLease(deps, owner, { itemId: row.id, lease }, values),
    });
  let embedder: Awaited<ReturnType<typeof resolveEmbedder>>;
  try {
    embedder = await resolveEmbedder(deps, batch.llmModels);
  } catch (error) {
    for (const row of batch.rows) await fail(row, error);
    return;
  }
  const prepared: Array<ReadyItemInput & { row: ItemRow }> = [];
  for (const row of batch.rows) {
    try {
      const source = await loadSource(deps, row);
      const parsed = await deps.parse({
        data: source.data,
        filename: source.filename,
        mimeType: source.mimeType,
        title: source.userTitle,
      });
      const chunks = await prepareChunks(parsed.document, embedder);
      prepared.push({
        row,
        itemId: row.id,
        title: parsed.document.title,
        mimeType: parsed.mimeType,
        readWithOcr: parsed.document.readWithOcr ?? false,
        chunks,
      });
    } catch (error) {
      await fail(row, error);
    }
  }
  const index = async (items: typeof prepared) => {
    await deps.waitForRequests();
    return indexReadyItems(deps.database, {
      owner,
      applicationId: batch.applicationId,
      lease,
      embedder,
      items,
    });
  };
  // Each indexing statement commits its items with their `knowledge.items.ended` row; they are told
  // after the indexing, so that only a failed statement sends an item to `fail`.
  const indexed: Array<Awaited<ReturnType<typeof index>>> = [];
  try {
    indexed.push(await index(prepared));
  } catch (error) {
    deps.log.warn(
      { err: error, itemIds: prepared.map((p) => p.itemId) },
      'batch indexing failed; indexing the items one by one',
    );
    for (const item of prepared) {
      try {
        indexed.push(await index([item]));
      } catch (itemError) {
        await fail(item.row, itemError);
      }
    }
  }
  for (const { ready, outboxId } of indexed) {
    for (const row of ready) await deps.publish(owner, row);
    if (outboxId !== null)
      await deps.events.written(outboxId, [
        { type: 'knowledge.items.ended', payload: { owner, items: ready } },
      ]);
  }
}

/** Writes to the item under our lease and publishes it; false when the lease is gone (deleted, reaped, re-synced). */
async function writeUnderLease(
  deps: IngestDeps,
  owner: ItemOwner,
  claim: { itemId: number; lease: string },
  values: Partial<typeof knowledgeItems.$inferInsert>,
): Promise<boolean> {
  const update = (db: Db) =>
    db
      .update(knowledgeItems)
      .set({ ...values, heartbeatAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(knowledgeItems.id, claim.itemId), eq(knowledgeItems.lease, claim.lease)))
      .returning();
  const [row] =
    values.status === 'ready' || values.status === 'failed'
      ? await deps.events.transaction(async (tx, emit) => {
          const rows = await update(tx);
          if (rows[0]) emit('knowledge.items.ended', { owner, items: rows });
          return rows;
        })
      : await update(deps.database.db);
  if (!row) return false;
  await deps.publish(owner, row);
  return true;
}

/**
 * Adds a crawled page's same-site links as items: for a `crawl_depth` crawl, or for a whole-site
 * import (its root's options, not a sitemap's), the links its rules allow. A failure here never
 * fails the page itself.
 */
async function crawl(deps: IngestDeps, owner: ItemOwner, item: ItemRow, links: string[]): Promise<void> {
  try {
    const root = item.crawlRootId
      ? (
          await deps.database.db.select().from(knowledgeItems).where(eq(knowledgeItems.id, item.crawlRootId))
        )[0]
      : item;
    const options = root?.crawlOptions;
    const site = root && options && !options.sitemap ? { maxPages: options.max_pages } : undefined;
    if (!site && item.crawlDepth <= 0) return;
    const rules = site && (await siteRules(root!.source!, options!, deps.fetch));
    const wanted = rules ? links.filter((link) => rules.allows(link)) : links;
    const added = await deps.database.db.transaction(async (tx) => {
      const rows = await addCrawledPages(tx, item, wanted, site);
      if (rows.length)
        await deps.enqueue(
          rows.map((row) => row.id),
          { tx },
        );
      return rows;
    });
    for (const row of added) await deps.publish(owner, row);
  } catch (err) {
    deps.log.warn({ err, itemId: item.id }, 'adding crawled pages failed');
  }
}

/**
 * A sitemap import's root: its pages become what the sitemap lists (read with the site's rules,
 * at most max_pages); new ones are queued, unlisted ones removed, kept ones checked soon (each
 * conditionally, by the re-sync job). The root holds no text of its own.
 */
export async function importSitemap(deps: IngestDeps, owner: ItemOwner, root: ItemRow): Promise<void> {
  const options = root.crawlOptions!;
  const rules = await siteRules(root.source!, options, deps.fetch);
  const urls = await readSitemap(root.source!, rules, options.max_pages, deps.fetch);
  const { added, removed } = await deps.database.db.transaction(async (tx) => {
    const changes = await syncSitePages(tx, root, urls, deps.clock());
    await deps.enqueue(
      changes.added.map((row) => row.id),
      { tx },
    );
    return changes;
  });
  for (const row of added) await deps.publish(owner, row);
  for (const row of removed) await deps.publish(owner, row, true);
}

/** A URL item was just read: checked now, its next check one interval on (pages follow their root's). */
export function checked(deps: IngestDeps, item: ItemRow): Partial<typeof knowledgeItems.$inferInsert> {
  const now = deps.clock();
  return {
    lastCheckedAt: now,
    checkFailures: 0,
    nextCheckAt: item.refreshIntervalHours
      ? new Date(now.getTime() + item.refreshIntervalHours * 3_600_000)
      : null,
  };
}

/**
 * Fetches a URL item, politely (per site), conditionally when we hold a copy with validators: a
 * 304 reads the stored copy instead.
 */
export async function fetchItemPage(deps: IngestDeps, item: ItemRow): Promise<FetchedPage> {
  const fetch = (conditional?: { etag: string | null; lastModified: string | null }) =>
    politely(item.source!, () =>
      fetchUrl(item.source!, {
        allowLoopback: deps.fetch.allowLoopback,
        userAgent: deps.fetch.userAgent,
        maxBytes: deps.fetch.maxBytes,
        ...(conditional && { conditional }),
      }),
    );
  if (!item.filePath || (!item.etag && !item.lastModified)) return fetch();
  return fetch({ etag: item.etag, lastModified: item.lastModified });
}

export const contentHash = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface LoadedSource {
  data: Buffer;
  filename?: string | undefined;
  mimeType?: string | undefined;
  baseUrl?: string | undefined;
  /** The title the user chose, if any: it wins over the document's. */
  userTitle?: string | undefined;
  /** Columns to record once the original is stored. */
  store: Partial<typeof knowledgeItems.$inferInsert>;
}

async function loadSource(deps: IngestDeps, item: ItemRow): Promise<LoadedSource> {
  // A file or URL item whose title is still its source was not titled by the user.
  const userTitle = item.title && item.title !== item.source ? item.title : undefined;
  if (item.type === 'url') {
    let page = await fetchItemPage(deps, item);
    let data = page.body;
    if (page.notModified) {
      const stored = await deps.files.get(item.filePath!).catch(() => undefined);
      // The copy the validators describe is gone: read the page in full.
      if (stored) data = stored;
      else {
        page = await fetchItemPage(deps, { ...item, etag: null, lastModified: null });
        data = page.body;
      }
    }
    const contentType = page.notModified ? (item.mimeType ?? '') : page.contentType;
    const hash = contentHash(data);
    return {
      data,
      mimeType: contentType,
      baseUrl: page.url,
      userTitle,
      store: {
        filePath: page.notModified ? item.filePath : await deps.files.put(data),
        sizeBytes: data.length,
        mimeType: contentType.split(';')[0]!,
        etag: page.notModified ? (page.etag ?? item.etag) : page.etag,
        lastModified: page.notModified ? (page.lastModified ?? item.lastModified) : page.lastModified,
        contentHash: hash,
        ...(hash !== item.contentHash && { lastChangedAt: deps.clock() }),
      },
    };
  }
  if (!item.filePath) throw new ParseError('corrupt', 'The stored original of this item is missing.');
  const data = await deps.files.get(item.filePath).catch(() => {
    throw new ParseError('corrupt', 'The stored original of this item is missing.');
  });
  if (item.type === 'text' || item.type === 'qa') {
    // Text is written by a person (a Q&A pair is stored as markdown): read it as markdown.
    return { data, filename: 'text.md', userTitle: item.title, store: {} };
  }
  return { data, filename: item.source ?? undefined, userTitle, store: {} };
}

async function handleFailure(
  deps: IngestDeps,
  ctx: {
    itemId: number;
    lease: string;
    attempts: number;
    error: unknown;
    update: (values: Partial<typeof knowledgeItems.$inferInsert>) => Promise<boolean>;
  },
): Promise<void> {
  const { error } = ctx;
  // The item was deleted while we worked: its chunks went with it.
  if (error instanceof AppError && error.code === 'not_found') return;
  // The document's fault (or the URL's): retrying cannot help.
  const permanent =
    error instanceof ParseError ||
    error instanceof FetchError ||
    (error instanceof AppError && error.statusCode < 500 && error.code !== 'rate_limited');
  if (!permanent && ctx.attempts < MAX_INGEST_ATTEMPTS) {
    deps.log.warn(
      { err: error, itemId: ctx.itemId, attempt: ctx.attempts },
      'knowledge ingestion failed; retrying',
    );
    const requeued = await ctx.update({ status: 'queued', progress: 0, lease: null });
    if (requeued) await deps.enqueue([ctx.itemId], { startAfterSeconds: 5 * ctx.attempts });
    return;
  }
  if (!permanent) deps.log.error({ err: error, itemId: ctx.itemId }, 'knowledge ingestion failed');
  // AppError details are written for people (e.g. an embedding provider that is down); other
  // errors may carry internals and are not shown.
  const reason = permanent
    ? (error as Error).message
    : error instanceof AppError
      ? `${error.detail} (tried ${MAX_INGEST_ATTEMPTS} times; re-sync to try again)`
      : `Indexing failed ${MAX_INGEST_ATTEMPTS} times because of an internal error. Try re-sync later.`;
  const failed = await ctx.update({
    status: 'failed',
    progress: 0,
    error: reason,
    chunkCount: 0,
    lease: null,
  });
  // A failed item is not searchable: whatever an earlier run indexed goes (unless another run took over).
  if (failed) await deleteItemChunks(deps.database, ctx.itemId).catch(() => {});
}

/**
 * Puts back in the queue the items a stopping process is still working on (their leases), with a
 * new job each; the attempt is not counted, the item did nothing wrong. Its worker's later writes
 * are ignored (they are conditional on the lease). Decision 052.
 */
export async function handBackItems(deps: IngestDeps, leases: string[]): Promise<number> {
  if (!leases.length) return 0;
  const { db } = deps.database;
  const rows = await db
    .update(knowledgeItems)
    .set({
      status: 'queued',
      progress: 0,
      lease: null,
      attempts: sql`greatest(${knowledgeItems.attempts} - 1, 0)`,
      updatedAt: sql`now()`,
    })
    .where(and(inArray(knowledgeItems.lease, leases), eq(knowledgeItems.status, 'processing')))
    .returning();
  if (!rows.length) return 0;
  await deps.enqueue(rows.map((row) => row.id));
  const owners = await ownersOf(db, rows);
  for (const row of rows) {
    const owner = owners.get(row.applicationId);
    if (owner) await deps.publish(owner, row);
  }
  return rows.length;
}

/**
 * Finds items whose worker died (no heartbeat for STALL_AFTER_SECONDS, or — with `all` — every
 * `processing` item, which is right at start-up when no other process can hold one, as with
 * PGlite) and queues them again, or fails them once they used up their attempts. Also re-queues
 * `queued` items left without a pending job. Duplicate jobs are harmless: only one can claim the item.
 */
export async function recoverStalledItems(
  deps: IngestDeps,
  options: { all?: boolean } = {},
): Promise<number> {
  const stalled = options.all
    ? eq(knowledgeItems.status, 'processing')
    : and(
        eq(knowledgeItems.status, 'processing'),
        lt(knowledgeItems.heartbeatAt, sql`now() - make_interval(secs => ${STALL_AFTER_SECONDS})`),
      );
  // Items that used up their attempts fail here, and their `knowledge.items.ended` commits with it.
  const recovered = await deps.events.transaction(async (tx, emit) => {
    const rows = await tx
      .update(knowledgeItems)
      .set({
        status: sql`CASE WHEN ${knowledgeItems.attempts} >= ${MAX_INGEST_ATTEMPTS} THEN 'failed' ELSE 'queued' END`,
        error: sql`CASE WHEN ${knowledgeItems.attempts} >= ${MAX_INGEST_ATTEMPTS}
        THEN ${`Processing stopped unexpectedly ${MAX_INGEST_ATTEMPTS} times (the server restarted or ran out of memory). Try a smaller file, or re-sync.`}
        ELSE NULL END`,
        progress: 0,
        lease: null,
        updatedAt: sql`now()`,
      })
      .where(stalled)
      .returning();
    const owners = await ownersOf(tx, rows);
    for (const row of rows) {
      const owner = owners.get(row.applicationId);
      if (owner && row.status === 'failed') emit('knowledge.items.ended', { owner, items: [row] });
    }
    return rows.map((row) => ({ row, owner: owners.get(row.applicationId) }));
  });
  // Queued items with no pending job: their job was fetched by a worker that died before
  // starting it (workers fetch jobs in batches). Anything waiting that long gets a new job.
  const { rows: waiting } = await deps.database.query<{ id: number }>(
    `UPDATE knowledge_items k SET updated_at = now()
     WHERE k.status = 'queued'
       AND ($1::boolean OR k.updated_at < now() - make_interval(secs => $2))
       AND NOT EXISTS (
         SELECT 1 FROM pgboss.job j
         WHERE j.name = $3 AND j.state IN ('created', 'retry') AND (j.data->>'itemId')::int = k.id)
     RETURNING k.id`,
    [options.all === true, STALL_AFTER_SECONDS, INGEST_QUEUE],
  );
  for (const { row, owner } of recovered) {
    if (row.status === 'failed') await deleteItemChunks(deps.database, row.id).catch(() => {});
    else await deps.enqueue([row.id]);
    if (owner) await deps.publish(owner, row);
  }
  if (waiting.length) await deps.enqueue(waiting.map((row) => row.id));
  return recovered.length + waiting.length;
}

/** The owners of the rows' applications, by application id. */
async function ownersOf(db: Db, rows: ItemRow[]): Promise<Map<number, ItemOwner>> {
  if (!rows.length) return new Map();
  const apps = await db
    .select({ id: applications.id, uuid: applications.uuid, ownerId: applications.ownerId })
    .from(applications)
    .where(inArray(applications.id, [...new Set(rows.map((row) => row.applicationId))]));
  return new Map(apps.map((a) => [a.id, { ownerId: a.ownerId, applicationUuid: a.uuid }]));
}
