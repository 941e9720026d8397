import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import type { knowledgeItems } from '@cairn/db/schema';

export type KnowledgeItemRow = typeof knowledgeItems.$inferSelect;

/** An item as the list endpoint and every `kb_updates` event show it. */
export function serializeItem(row: KnowledgeItemRow): TKnowledgeItem {
  return {
    uuid: row.uuid,
    type: row.type,
    title: row.title,
    source: row.source,
    status: row.status,
    progress: row.progress,
    error: row.status === 'failed' ? row.error : null,
    mime_type: row.mimeType,
    size_bytes: row.sizeBytes,
    language: row.language,
    chunk_count: row.chunkCount,
    indexed_at: row.indexedAt ? new Date(row.indexedAt).toISOString() : null,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}
