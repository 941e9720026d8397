import type { Db } from '@cairn/db/client';
import { applications, knowledgeItems } from '@cairn/db/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ItemOwner } from '../lib/product-events.ts';
import { FetchError } from './fetch-url.ts';
import { checked, contentHash, fetchItemPage, type IngestDeps, importSitemap } from './ingest-item.ts';
import { deletePages } from './site-pages.ts';

export const REFRESH_QUEUE = 'knowledge-refresh';
/** The re-sync job looks for due items every minute. */
export const REFRESH_CRON = '* * * * *';
/** Items one claim takes; a claim is held this long (a process that dies mid-check gives them back then). */
const CLAIM_SIZE = 20;
const CLAIM_LEASE_MS = 15 * 60_000;
/** One run stops claiming after this long: the next minute's run goes on. */
const RUN_BUDGET_MS = 50_000;
/** Failed checks back off (interval × 2^failures) up to a week. */
export const MAX_BACKOFF_HOURS = 7 * 24;

type ItemRow = typeof knowledgeItems.$inferSelect;

/**
 * Checks every due URL item (`next_check_at <= now`, by the injectable clock): claimed in batches
 * with FOR UPDATE SKIP LOCKED, their `next_check_at` pushed a lease ahead, so two processes never
 * check the same item. Returns how many were checked.
 */
export async function runDueChecks(deps: IngestDeps): Promise<number> {
  const started = Date.now();
  let total = 0;
  while (Date.now() - started < RUN_BUDGET_MS) {
    const rows = await claimDueItems(deps);
    if (rows.length === 0) break;
    // Side by side: `politely` keeps each site to its two requests at a time.
    await Promise.all(rows.map((row) => checkItem(deps, row)));
    total += rows.length;
  }
  return total;
}

async function claimDueItems(deps: IngestDeps): Promise<ItemRow[]> {
  const now = deps.clock();
  const { rows } = await deps.database.query<{ id: number }>(
    `UPDATE knowledge_items SET next_check_at = $2
     WHERE id IN (
       SELECT id FROM knowledge_items
       WHERE next_check_at <= $1 AND type = 'url' AND status IN ('ready', 'failed')
       ORDER BY next_check_at LIMIT $3
       FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [now.toISOString(), new Date(now.getTime() + CLAIM_LEASE_MS).toISOString(), CLAIM_SIZE],
  );
  if (rows.length === 0) return [];
  return deps.database.db
    .select()
    .from(knowledgeItems)
    .where(
      inArray(
        knowledgeItems.id,
        rows.map((row) => row.id),
      ),
    );
}

/**
 * One conditional check. Unchanged (304, or the same content hash) → only the check times move.
 * Changed → queued for ingestion, which reads it again (conditionally: the copy just stored) and
 * replaces its chunks in one statement, so the old ones answer until then. A site root's check
 * re-reads its sitemap (new pages added, unlisted ones removed) or, for a crawl, makes every page
 * due. A page that answers 404 or 410 is removed; any other failure backs off.
 */
export async function checkItem(deps: IngestDeps, row: ItemRow): Promise<void> {
  const owner = await ownerOf(deps, row.applicationId);
  if (!owner) return;
  try {
    if (row.crawlOptions?.sitemap) {
      await importSitemap(deps, owner, row);
      await write(deps, owner, row, { ...checked(deps, row), status: 'ready', error: null });
      return;
    }
    const page = await fetchItemPage(deps, row);
    if (row.crawlOptions)
      await deps.database.db
        .update(knowledgeItems)
        .set({ nextCheckAt: deps.clock() })
        .where(
          and(eq(knowledgeItems.crawlRootId, row.id), inArray(knowledgeItems.status, ['ready', 'failed'])),
        );
    const validators = page.notModified ? {} : { etag: page.etag, lastModified: page.lastModified };
    if (page.notModified || (row.status === 'ready' && contentHash(page.body) === row.contentHash)) {
      await write(deps, owner, row, { ...checked(deps, row), ...validators });
      return;
    }
    // Changed: the new copy and its validators are stored now, so ingestion's conditional fetch
    // gets a 304 and reads this very copy. The content hash stays the old one until it is indexed.
    const filePath = await deps.files.put(page.body);
    const [queued] = await deps.database.db
      .update(knowledgeItems)
      .set({
        ...checked(deps, row),
        ...validators,
        filePath,
        mimeType: page.contentType.split(';')[0]!,
        status: 'queued',
        progress: 0,
        error: null,
        lease: null,
        attempts: 0,
        updatedAt: sql`now()`,
      })
      .where(and(eq(knowledgeItems.id, row.id), inArray(knowledgeItems.status, ['ready', 'failed'])))
      .returning();
    if (!queued) return;
    await deps.enqueue([row.id]);
    await deps.publish(owner, queued);
  } catch (error) {
    if (!(error instanceof FetchError))
      deps.log.error({ err: error, itemId: row.id }, 'knowledge check failed');
    const reason =
      error instanceof FetchError ? error.message : 'The check failed because of an internal error.';
    if (row.crawlRootId && error instanceof FetchError && (error.status === 404 || error.status === 410)) {
      await deps.database.db.transaction((tx) => deletePages(tx, [row.id]));
      await deps.publish(owner, row, true);
      return;
    }
    await checkFailed(deps, owner, row, reason);
  }
}

async function checkFailed(deps: IngestDeps, owner: ItemOwner, row: ItemRow, reason: string) {
  const failures = row.checkFailures + 1;
  const now = deps.clock();
  // Pages are checked again with their root; a root or lone page backs off.
  const hours = row.refreshIntervalHours
    ? Math.min(row.refreshIntervalHours * 2 ** failures, MAX_BACKOFF_HOURS)
    : undefined;
  const values = {
    lastCheckedAt: now,
    checkFailures: failures,
    nextCheckAt: hours ? new Date(now.getTime() + hours * 3_600_000) : null,
  };
  const updated = await deps.events.transaction(async (tx, emit) => {
    const updated = await updateItem(tx, row, values);
    // Told once when checks start failing, not at every failure; a success resets the count.
    // A site's pages have no schedule of their own: their root's failures are the ones told.
    if (updated && failures === 1 && row.refreshIntervalHours)
      emit('knowledge.check.failing', { owner, item: updated, reason });
    return updated;
  });
  if (updated) await deps.publish(owner, updated);
}

async function write(
  deps: IngestDeps,
  owner: ItemOwner,
  row: ItemRow,
  values: Partial<typeof knowledgeItems.$inferInsert>,
): Promise<void> {
  const updated = await updateItem(deps.database.db, row, values);
  if (updated) await deps.publish(owner, updated);
}

async function updateItem(
  db: Db,
  row: ItemRow,
  values: Partial<typeof knowledgeItems.$inferInsert>,
): Promise<ItemRow | undefined> {
  const [updated] = await db
    .update(knowledgeItems)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(knowledgeItems.id, row.id))
    .returning();
  return updated;
}

async function ownerOf(deps: IngestDeps, applicationId: number): Promise<ItemOwner | undefined> {
  const [app] = await deps.database.db
    .select({ uuid: applications.uuid, ownerId: applications.ownerId })
    .from(applications)
    .where(eq(applications.id, applicationId));
  return app && { ownerId: app.ownerId, applicationUuid: app.uuid };
}
