import { knowledgeChunks, knowledgeItems } from '@cairn/db/schema';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

/** The most items `resources/list` names (newest first); search reaches them all. */
export const LISTED_ITEMS_MAX = 1000;
/** The most characters of an item's text one `resources/read` returns. */
export const ITEM_TEXT_MAX = 500_000;

/** The application's knowledge items as MCP lists them, newest first (switched-off items are not). */
export function listedItems({ db }: Pick<Ctx, 'db'>, applicationId: number) {
  return db
    .select({
      uuid: knowledgeItems.uuid,
      title: knowledgeItems.title,
      type: knowledgeItems.type,
      status: knowledgeItems.status,
      chunkCount: knowledgeItems.chunkCount,
      mimeType: knowledgeItems.mimeType,
      updatedAt: knowledgeItems.updatedAt,
    })
    .from(knowledgeItems)
    .where(and(eq(knowledgeItems.applicationId, applicationId), eq(knowledgeItems.enabled, true)))
    .orderBy(desc(knowledgeItems.createdAt), desc(knowledgeItems.id))
    .limit(LISTED_ITEMS_MAX);
}

interface Piece {
  content: string;
  startOffset: number;
  endOffset: number;
}

/**
 * The item's extracted text rebuilt from its chunks (exact slices of the parsed text, at their
 * offsets): what consecutive chunks share — they overlap so that a passage keeps its context — is
 * written once, and a gap between them (sections are joined by a blank line) becomes a blank line.
 */
export function joinChunks(chunks: Piece[]): string {
  let text = '';
  let end = 0;
  for (const chunk of chunks) {
    const shared = end - chunk.startOffset;
    if (!text) text = chunk.content;
    else if (shared >= 0) text += chunk.content.slice(shared);
    else text += `\n\n${chunk.content}`;
    end = Math.max(end, chunk.endOffset);
  }
  return text;
}

/** One item of the application with its extracted text (its chunks in document order), or null. */
export async function itemWithText({ db }: Pick<Ctx, 'db'>, applicationId: number, uuid: string) {
  const [item] = await db
    .select()
    .from(knowledgeItems)
    .where(
      and(
        eq(knowledgeItems.uuid, uuid),
        eq(knowledgeItems.applicationId, applicationId),
        eq(knowledgeItems.enabled, true),
      ),
    );
  if (!item) return null;
  const chunks = await db
    .select({
      content: knowledgeChunks.content,
      startOffset: knowledgeChunks.startOffset,
      endOffset: knowledgeChunks.endOffset,
    })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.itemId, item.id))
    .orderBy(asc(knowledgeChunks.ordinal));
  const whole = joinChunks(chunks);
  const truncated = whole.length > ITEM_TEXT_MAX;
  return { item, text: truncated ? whole.slice(0, ITEM_TEXT_MAX) : whole, truncated };
}
