import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import type { knowledgeItems } from '@cairn/db/schema';
import { MAX_INGEST_ATTEMPTS } from '../../rag/ingest-item.ts';
import { NO_SITE, type SiteView } from './site-view.ts';

export type KnowledgeItemRow = typeof knowledgeItems.$inferSelect;

/**
 * Ingestion fails an item at once only when the failure is the input's own (decision 055:
 * `ParseError`, a refused fetch, a 4xx); anything else is retried and fails after every attempt
 * was used. So a file or text that failed before its attempts ran out fails the same way on a
 * re-sync of the same bytes; a web page is fetched anew and may work.
 */
function isRetryable(row: KnowledgeItemRow): boolean {
  return row.status !== 'failed' || row.type === 'url' || row.attempts >= MAX_INGEST_ATTEMPTS;
}

/** An item as the list endpoint and every `kb_updates` event show it. */
export function serializeItem(row: KnowledgeItemRow, site: SiteView = NO_SITE): TKnowledgeItem {
  return {
    uuid: row.uuid,
    type: row.type,
    title: row.title,
    source: row.source,
    status: row.status,
    progress: row.progress,
    error: row.status === 'failed' ? row.error : null,
    retryable: isRetryable(row),
    mime_type: row.mimeType,
    size_bytes: row.sizeBytes,
    language: row.language,
    chunk_count: row.chunkCount,
    enabled: row.enabled,
    qa:
      row.type === 'qa'
        ? {
            question: row.qaQuestion ?? '',
            alternatives: row.qaAlternatives ?? [],
            answer: row.qaAnswer ?? '',
          }
        : null,
    read_with_ocr: row.readWithOcr,
    indexed_at: row.indexedAt ? new Date(row.indexedAt).toISOString() : null,
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
    refresh_interval_hours: row.refreshIntervalHours,
    last_checked_at: iso(row.lastCheckedAt),
    last_changed_at: iso(row.lastChangedAt),
    next_check_at: iso(row.nextCheckAt),
    site_root: site.root,
    site: row.crawlOptions
      ? {
          ...row.crawlOptions,
          found: row.crawlFound,
          ...(site.counts ?? { fetched: 0, indexed: 0, failed: 0 }),
        }
      : null,
  };
}

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);
