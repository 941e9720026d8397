import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { describe, expect, it } from 'vitest';
import { applyToAdded, newest } from './use-added-items';

const APP = '00000000-0000-4000-8000-000000000001';
const item = (uuid: string, status: TKnowledgeItem['status'], updated: string): TKnowledgeItem => ({
  uuid,
  type: 'text',
  title: uuid,
  source: null,
  status,
  progress: status === 'ready' ? 100 : 0,
  error: null,
  retryable: true,
  mime_type: null,
  size_bytes: null,
  language: null,
  chunk_count: 0,
  enabled: true,
  qa: null,
  read_with_ocr: false,
  indexed_at: null,
  created_at: '2026-11-21T06:00:00.000Z',
  updated_at: updated,
  refresh_interval_hours: null,
  last_checked_at: null,
  last_changed_at: null,
  next_check_at: null,
  site_root: null,
  site: null,
});

describe('the items added from the inbox, kept live', () => {
  const queued = item('a', 'queued', '2026-11-21T06:00:01.000Z');
  const ready = item('a', 'ready', '2026-11-21T06:00:05.000Z');

  it('moves an added item to its newer state, never back', () => {
    expect(applyToAdded([queued], { application_uuid: APP, item: ready })).toEqual([ready]);
    expect(applyToAdded([ready], { application_uuid: APP, item: queued })).toEqual([ready]);
  });

  it('ignores the application’s other items, and drops a deleted one', () => {
    const other = item('b', 'ready', '2026-11-21T06:00:05.000Z');
    const list = [queued];
    expect(applyToAdded(list, { application_uuid: APP, item: other })).toBe(list);
    expect(applyToAdded(list, { application_uuid: APP, item: queued, deleted: true })).toEqual([]);
  });

  it('starts an item from a state the socket told of before the answer arrived', () => {
    expect(newest(queued, ready)).toBe(ready);
    expect(newest(ready, queued)).toBe(ready);
    expect(newest(queued, undefined)).toBe(queued);
  });
});
