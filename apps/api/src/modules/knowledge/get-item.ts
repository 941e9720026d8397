import type { TKnowledgeItemDetail } from '@cairn/contracts/knowledge';
import { knowledgeChunks } from '@cairn/db/schema';
import { asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findItem } from './find-item.ts';
import { serializeItem } from './serialize-item.ts';
import { NO_SITE, siteViews } from './site-view.ts';

/** How many chunks the item preview shows. */
export const PREVIEW_CHUNKS = 50;

/** One item with a preview of its first chunks, in document order. */
export async function getItem(
  { db }: Pick<Ctx, 'db'>,
  applicationId: number,
  uuid: string,
): Promise<TKnowledgeItemDetail> {
  const row = await findItem(db, applicationId, uuid);
  const chunks = await db
    .select({
      id: knowledgeChunks.id,
      content: knowledgeChunks.content,
      page: knowledgeChunks.page,
      heading: knowledgeChunks.heading,
    })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.itemId, row.id))
    .orderBy(asc(knowledgeChunks.ordinal))
    .limit(PREVIEW_CHUNKS);
  const site = (await siteViews(db, [row])).get(row.id) ?? NO_SITE;
  return { ...serializeItem(row, site), chunks };
}
