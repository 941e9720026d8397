import type { TKnowledgeChunkPage } from '@cairn/contracts/knowledge-chunks';
import { knowledgeChunks } from '@cairn/db/schema';
import { and, asc, count, eq, gt } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findItem } from './find-item.ts';

/**
 * Every chunk of one item in document order, a page at a time: keyset on the position (the
 * cursor is the last position returned), so a long document pages in constant time.
 */
export async function listChunks(
  { db }: Pick<Ctx, 'db'>,
  applicationId: number,
  uuid: string,
  query: { limit: number; cursor?: number | undefined },
): Promise<TKnowledgeChunkPage> {
  const item = await findItem(db, applicationId, uuid);
  const rows = await db
    .select({
      id: knowledgeChunks.id,
      position: knowledgeChunks.ordinal,
      content: knowledgeChunks.content,
      heading: knowledgeChunks.heading,
      page: knowledgeChunks.page,
    })
    .from(knowledgeChunks)
    .where(
      and(
        eq(knowledgeChunks.itemId, item.id),
        query.cursor === undefined ? undefined : gt(knowledgeChunks.ordinal, query.cursor),
      ),
    )
    .orderBy(asc(knowledgeChunks.ordinal))
    .limit(query.limit + 1);
  const chunks = rows.slice(0, query.limit);
  // Counted, not the item's chunk_count: while an item is being indexed again the two can differ.
  const [counted] = await db
    .select({ total: count() })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.itemId, item.id));
  return {
    chunks,
    next_cursor: rows.length > query.limit ? String(chunks.at(-1)!.position) : null,
    total: counted?.total ?? 0,
  };
}
