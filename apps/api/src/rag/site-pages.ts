import type { Db } from '@cairn/db/client';
import { knowledgeChunks, knowledgeItems } from '@cairn/db/schema';
import { and, eq, inArray } from 'drizzle-orm';

type ItemRow = typeof knowledgeItems.$inferSelect;

/**
 * Makes a site import's pages what its sitemap lists now: new addresses become pages (returned,
 * for the caller to queue), pages no longer listed are deleted with their chunks, the pages kept
 * are due for a conditional check at `now`, and `crawl_found` is the count. In the caller's
 * transaction; the root row is locked so two runs of the same root cannot interleave.
 */
export async function syncSitePages(
  tx: Db,
  root: ItemRow,
  urls: string[],
  now: Date,
): Promise<{ added: ItemRow[]; removed: ItemRow[] }> {
  await tx
    .select({ id: knowledgeItems.id })
    .from(knowledgeItems)
    .where(eq(knowledgeItems.id, root.id))
    .for('update');
  const pages = await tx.select().from(knowledgeItems).where(eq(knowledgeItems.crawlRootId, root.id));
  const listed = new Set(urls);
  const removed = pages.filter((page) => !listed.has(page.source ?? ''));
  await deletePages(
    tx,
    removed.map((page) => page.id),
  );
  const known = new Set(pages.map((page) => page.source));
  const fresh = urls.filter((url) => !known.has(url) && url !== root.source);
  const added = fresh.length
    ? await tx
        .insert(knowledgeItems)
        .values(
          fresh.map((url) => ({
            applicationId: root.applicationId,
            type: 'url' as const,
            title: url,
            source: url,
            crawlRootId: root.id,
          })),
        )
        .returning()
    : [];
  await tx
    .update(knowledgeItems)
    .set({ nextCheckAt: now })
    .where(and(eq(knowledgeItems.crawlRootId, root.id), inArray(knowledgeItems.status, ['ready', 'failed'])));
  await tx
    .update(knowledgeItems)
    .set({ crawlFound: pages.length - removed.length + added.length })
    .where(eq(knowledgeItems.id, root.id));
  return { added, removed };
}

/** Deletes pages and their chunks (chunks first, as deleting an item does). */
export async function deletePages(tx: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(knowledgeChunks).where(inArray(knowledgeChunks.itemId, ids));
  await tx.delete(knowledgeItems).where(inArray(knowledgeItems.id, ids));
}
