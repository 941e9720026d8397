import path from 'node:path';
import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge';
import type { Db } from '@cairn/db/client';
import { knowledgeItems } from '@cairn/db/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';

/** Extensions that are surely not pages: not worth an item that would fail as "not a web page". */
const NOT_PAGES = new Set(
  '.png .jpg .jpeg .gif .webp .svg .ico .css .js .mjs .json .xml .zip .gz .tar .mp3 .mp4 .webm .woff .woff2 .ttf .exe .dmg'.split(
    ' ',
  ),
);

/**
 * The links of a page worth crawling: same origin (scheme, host and port) as the page, without
 * fragments, not the page itself, not obvious assets. Order kept, duplicates dropped.
 */
export function sameSiteLinks(links: string[], pageUrl: string): string[] {
  const page = new URL(pageUrl);
  page.hash = '';
  const out = new Set<string>();
  for (const link of links) {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      continue;
    }
    url.hash = '';
    if (url.origin !== page.origin || url.toString() === page.toString()) continue;
    if (NOT_PAGES.has(path.extname(url.pathname).toLowerCase())) continue;
    out.add(url.toString());
  }
  return [...out];
}

type ItemRow = typeof knowledgeItems.$inferSelect;

/**
 * Adds the same-site links of a crawled page as URL items of their own, skipping addresses the
 * application already has. Two kinds of crawl: `crawl_depth` (one level shallower each, at most
 * KNOWLEDGE_LIMITS.crawlPages per crawl), and a whole-site import (`site`: the links were filtered
 * by its rules; at most its max_pages, the start page included; `crawl_found` kept as the count).
 * Runs in the caller's transaction, so items and their jobs commit together; the root row is
 * locked so that pages of the same crawl processed side by side respect the cap.
 */
export async function addCrawledPages(
  tx: Db,
  item: ItemRow,
  links: string[],
  site?: { maxPages: number },
): Promise<ItemRow[]> {
  if (item.type !== 'url' || (!site && item.crawlDepth <= 0) || links.length === 0) return [];
  const rootId = item.crawlRootId ?? item.id;
  const [root] = await tx
    .select({ id: knowledgeItems.id })
    .from(knowledgeItems)
    .where(eq(knowledgeItems.id, rootId))
    .for('update');
  if (!root) return [];
  const [{ count } = { count: 0 }] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(knowledgeItems)
    .where(eq(knowledgeItems.crawlRootId, rootId));
  const room = (site ? site.maxPages - 1 : KNOWLEDGE_LIMITS.crawlPages) - count;
  if (room <= 0) return [];
  const known = new Set(
    (
      await tx
        .select({ source: knowledgeItems.source })
        .from(knowledgeItems)
        .where(
          and(
            eq(knowledgeItems.applicationId, item.applicationId),
            eq(knowledgeItems.type, 'url'),
            inArray(knowledgeItems.source, links),
          ),
        )
    ).map((r) => r.source),
  );
  const fresh = links.filter((link) => !known.has(link)).slice(0, room);
  if (fresh.length === 0) return [];
  const added = await tx
    .insert(knowledgeItems)
    .values(
      fresh.map((link) => ({
        applicationId: item.applicationId,
        type: 'url' as const,
        title: link,
        source: link,
        crawlDepth: site ? 0 : item.crawlDepth - 1,
        crawlRootId: rootId,
      })),
    )
    .returning();
  if (site)
    await tx
      .update(knowledgeItems)
      .set({ crawlFound: count + added.length + 1 })
      .where(eq(knowledgeItems.id, rootId));
  return added;
}
