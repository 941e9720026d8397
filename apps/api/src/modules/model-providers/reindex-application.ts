import type { Db } from '@cairn/db/client';
import { knowledgeItems } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';

export type KnowledgeItemRow = typeof knowledgeItems.$inferSelect;
export type EnqueueItems = (itemIds: number[], options: { tx: Db }) => Promise<void>;

/**
 * Queues every knowledge item of an application for indexing again, inside the caller's
 * transaction (the one that changed the embedding model): the model change and the re-index
 * commit together, or neither does. Each item goes back to `queued` at 0 % with a fresh attempt
 * count; a run in progress loses its lease, so its writes stop counting. The ingestion workers
 * then report progress per item (`kb_updates`). Vectors of the old model stay until each item is
 * re-indexed; retrieval only ever reads vectors of the selected model.
 */
export async function requeueApplicationItems(
  tx: Db,
  enqueue: EnqueueItems,
  applicationId: number,
): Promise<KnowledgeItemRow[]> {
  const rows = await tx
    .update(knowledgeItems)
    .set({ status: 'queued', progress: 0, error: null, lease: null, attempts: 0, updatedAt: sql`now()` })
    .where(eq(knowledgeItems.applicationId, applicationId))
    .returning();
  await enqueue(
    rows.map((row) => row.id),
    { tx },
  );
  return rows;
}
