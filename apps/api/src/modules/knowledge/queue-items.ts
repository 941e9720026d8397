import type { Db } from '@cairn/db/client';
import { knowledgeItems } from '@cairn/db/schema';
import type { FileStore } from '../../rag/file-store.ts';
import type { KnowledgeItemInput } from './read-items.ts';

export type PreparedItemRow = Omit<typeof knowledgeItems.$inferInsert, 'applicationId'>;

/**
 * Stores the originals (content-addressed: storing twice is harmless, so this may run before
 * the transaction that records them) and returns the rows to insert.
 */
export async function prepareItemRows(
  files: FileStore,
  inputs: KnowledgeItemInput[],
): Promise<PreparedItemRow[]> {
  const rows: PreparedItemRow[] = [];
  for (const input of inputs) {
    if (input.type === 'file') {
      rows.push({
        type: 'file',
        // Untitled files show their name until the parser finds a title.
        title: input.title ?? input.filename,
        source: input.filename,
        filePath: await files.put(input.data),
        sizeBytes: input.data.length,
      });
    } else if (input.type === 'text') {
      const data = Buffer.from(input.value, 'utf8');
      rows.push({
        type: 'text',
        title: input.title,
        filePath: await files.put(data),
        mimeType: 'text/markdown',
        sizeBytes: data.length,
      });
    } else {
      rows.push({
        type: 'url',
        title: input.title ?? input.value,
        source: input.value,
        crawlDepth: input.crawlDepth,
      });
    }
  }
  return rows;
}

/** Inserts the rows (inside the caller's transaction) in request order. */
export async function insertItemRows(tx: Db, applicationId: number, rows: PreparedItemRow[]) {
  if (rows.length === 0) return [];
  return tx
    .insert(knowledgeItems)
    .values(rows.map((row) => ({ ...row, applicationId })))
    .returning();
}
