import { describe, expect, it } from 'vitest';
import { MAX_INGEST_ATTEMPTS } from '../../rag/ingest-item.ts';
import { type KnowledgeItemRow, serializeItem } from './serialize-item.ts';

const row = (over: Partial<KnowledgeItemRow>): KnowledgeItemRow => ({
  id: 1,
  uuid: '00000000-0000-4000-8000-000000000001',
  applicationId: 1,
  type: 'file',
  title: 'Handbook',
  source: 'handbook.pdf',
  filePath: 'ab/cd',
  mimeType: 'application/pdf',
  sizeBytes: 10,
  status: 'failed',
  progress: 0,
  error: 'This PDF is corrupt or incomplete and cannot be read.',
  language: null,
  chunkCount: 0,
  attempts: 1,
  crawlDepth: 0,
  crawlRootId: null,
  lease: null,
  heartbeatAt: null,
  indexedAt: null,
  enabled: true,
  refreshIntervalHours: null,
  lastCheckedAt: null,
  lastChangedAt: null,
  nextCheckAt: null,
  checkFailures: 0,
  etag: null,
  lastModified: null,
  contentHash: null,
  crawlOptions: null,
  crawlFound: 0,
  qaQuestion: null,
  qaAlternatives: null,
  qaAnswer: null,
  readWithOcr: false,
  createdAt: new Date(),
  updatedAt: new Date(),
  ...over,
});

describe('whether a re-sync can help', () => {
  it('not for a file or text that failed on its content at once', () => {
    expect(serializeItem(row({})).retryable).toBe(false);
    expect(serializeItem(row({ type: 'text' })).retryable).toBe(false);
  });

  it('for a failure that used up its attempts, a web page, and anything not failed', () => {
    expect(serializeItem(row({ attempts: MAX_INGEST_ATTEMPTS })).retryable).toBe(true);
    expect(serializeItem(row({ type: 'url' })).retryable).toBe(true);
    expect(serializeItem(row({ status: 'ready', error: null })).retryable).toBe(true);
  });
});
