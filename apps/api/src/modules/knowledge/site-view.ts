import type { Db } from '@cairn/db/client';
import { knowledgeItems } from '@cairn/db/schema';
import { inArray, sql } from 'drizzle-orm';
import type { KnowledgeItemRow } from './serialize-item.ts';

/** What an item's shape says about the site import it belongs to or leads. */
export interface SiteView {
  /** The root's uuid, for a page of a site import (not of a `crawl_depth` crawl). */
  root: string | null;
  /** For a root: its pages by progress. */
  counts: { fetched: number; indexed: number; failed: number } | null;
}

export const NO_SITE: SiteView = { root: null, counts: null };

/** The site views of rows, in two queries at most (none when no row is part of a site import). */
export async function siteViews(db: Db, rows: KnowledgeItemRow[]): Promise<Map<number, SiteView>> {
  const rootIds = [...new Set(rows.flatMap((row) => (row.crawlRootId ? [row.crawlRootId] : [])))];
  const leaders = rows.filter((row) => row.crawlOptions).map((row) => row.id);
  const views = new Map<number, SiteView>();
  const uuids = new Map<number, string>();
  if (rootIds.length) {
    const roots = await db
      .select({ id: knowledgeItems.id, uuid: knowledgeItems.uuid, options: knowledgeItems.crawlOptions })
      .from(knowledgeItems)
      .where(inArray(knowledgeItems.id, rootIds));
    // Pages of a `crawl_depth` crawl stay items of their own: only a site import groups its pages.
    for (const root of roots) if (root.options) uuids.set(root.id, root.uuid);
  }
  const counts = new Map<number, SiteView['counts']>();
  if (leaders.length) {
    const grouped = await db
      .select({
        rootId: knowledgeItems.crawlRootId,
        // A page is fetched once its original is stored (progress 10) or it is done.
        fetched: sql<number>`count(*) filter (where ${knowledgeItems.status} = 'ready' or (${knowledgeItems.status} = 'processing' and ${knowledgeItems.progress} >= 10))::int`,
        indexed: sql<number>`count(*) filter (where ${knowledgeItems.status} = 'ready')::int`,
        failed: sql<number>`count(*) filter (where ${knowledgeItems.status} = 'failed')::int`,
      })
      .from(knowledgeItems)
      .where(inArray(knowledgeItems.crawlRootId, leaders))
      .groupBy(knowledgeItems.crawlRootId);
    for (const g of grouped)
      counts.set(g.rootId!, { fetched: g.fetched, indexed: g.indexed, failed: g.failed });
  }
  for (const row of rows) {
    const root = row.crawlRootId ? (uuids.get(row.crawlRootId) ?? null) : null;
    const count = row.crawlOptions ? (counts.get(row.id) ?? { fetched: 0, indexed: 0, failed: 0 }) : null;
    if (root || count) views.set(row.id, { root, counts: count });
  }
  return views;
}
