import type { Db } from '@cairn/db/client';
import { knowledgeItems } from '@cairn/db/schema';
import type { FileStore } from '../../rag/file-store.ts';
import { qaDocument } from './qa-document.ts';
import type { KnowledgeItemInput } from './read-items.ts';

export type PreparedItemRow = Omit<typeof knowledgeItems.$inferInsert, 'applicationId'>;
export type ItemRow = typeof knowledgeItems.$inferSelect;

/**
 * Stores the originals (content-addressed: storing twice is harmless, so this may run before
 * the transaction that records them) and returns the rows to insert.
 */
export async function prepareItemRows(
  files: FileStore,
  inputs: KnowledgeItemInput[],
): Promise<PreparedItemRow[]> {
  // In parallel: on PGlite every await of the request may wait behind an ingestion statement on
  // the main thread, so a hundred sequential writes cost a hundred such waits.
  return Promise.all(inputs.map((input) => prepareItemRow(files, input)));
}

async function prepareItemRow(files: FileStore, input: KnowledgeItemInput): Promise<PreparedItemRow> {
  if (input.type === 'file') {
    return {
      type: 'file',
      // Untitled files show their name until the parser finds a title.
      title: input.title ?? input.filename,
      source: input.filename,
      filePath: await files.put(input.data),
      sizeBytes: input.data.length,
    };
  }
  if (input.type === 'qa') {
    const data = Buffer.from(qaDocument(input), 'utf8');
    return {
      type: 'qa',
      title: input.title,
      filePath: await files.put(data),
      mimeType: 'text/markdown',
      sizeBytes: data.length,
      qaQuestion: input.question,
      qaAnswer: input.answer,
      qaAlternatives: input.alternatives,
    };
  }
  if (input.type === 'text') {
    const data = Buffer.from(input.value, 'utf8');
    return {
      type: 'text',
      title: input.title,
      filePath: await files.put(data),
      mimeType: 'text/markdown',
      sizeBytes: data.length,
    };
  }
  return {
    type: 'url',
    title: input.title ?? input.value,
    source: input.value,
    crawlDepth: input.crawlDepth,
    refreshIntervalHours: input.refreshIntervalHours,
    // Moved one interval past the first read when it is ready; this covers a first read that fails.
    nextCheckAt: input.refreshIntervalHours
      ? new Date(Date.now() + input.refreshIntervalHours * 3_600_000)
      : null,
    crawlOptions: input.site,
  };
}

/** Inserts the rows (inside the caller's transaction) in request order. */
export async function insertItemRows(
  tx: Db,
  applicationId: number,
  rows: PreparedItemRow[],
): Promise<ItemRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(knowledgeItems)
    .values(rows.map((row) => ({ ...row, applicationId })))
    .returning();
}
