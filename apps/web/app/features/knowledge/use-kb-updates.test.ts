import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { describe, expect, it } from 'vitest';
import { applyUpdate, mergeNewer } from './use-kb-updates';

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

describe('applyUpdate (kb_updates → the list)', () => {
  const a = item('a', 'queued', '2026-11-21T06:00:01.000Z');
  const b = item('b', 'queued', '2026-11-21T06:00:01.000Z');

  it('replaces an item in place with its newer state', () => {
    const next = applyUpdate([a, b], {
      application_uuid: APP,
      item: item('a', 'ready', '2026-11-21T06:00:05.000Z'),
    });
    expect(next.map((i) => [i.uuid, i.status])).toEqual([
      ['a', 'ready'],
      ['b', 'queued'],
    ]);
  });

  it('appends an item it has not seen (added in another tab or by a crawl)', () => {
    const next = applyUpdate([a], { application_uuid: APP, item: b });
    expect(next.map((i) => i.uuid)).toEqual(['a', 'b']);
  });

  it('removes a deleted item', () => {
    expect(applyUpdate([a, b], { application_uuid: APP, item: a, deleted: true }).map((i) => i.uuid)).toEqual(
      ['b'],
    );
  });

  it('ignores an event older than what it shows (events can overtake each other)', () => {
    const ready = item('a', 'ready', '2026-11-21T06:00:09.000Z');
    const late = item('a', 'processing', '2026-11-21T06:00:03.000Z');
    expect(applyUpdate([ready], { application_uuid: APP, item: late })[0]!.status).toBe('ready');
  });
});

describe('mergeNewer (a reloaded list meets what events already showed)', () => {
  it('keeps the newer state of each item and the loaded membership', () => {
    const readyA = item('a', 'ready', '2026-11-21T06:00:09.000Z');
    const loadedA = item('a', 'processing', '2026-11-21T06:00:04.000Z');
    const loadedB = item('b', 'ready', '2026-11-21T06:00:05.000Z');
    const oldB = item('b', 'queued', '2026-11-21T06:00:01.000Z');
    const gone = item('c', 'ready', '2026-11-21T06:00:01.000Z');
    const merged = mergeNewer([loadedA, loadedB], [readyA, oldB, gone]);
    expect(merged.map((i) => [i.uuid, i.status])).toEqual([
      ['a', 'ready'],
      ['b', 'ready'],
    ]);
  });

  it('keeps an item an event showed after the list was asked for (the reload raced its events)', () => {
    const a = item('a', 'ready', '2026-11-21T06:00:05.000Z');
    const added = item('added', 'ready', '2026-11-21T06:00:09.000Z');
    const deleted = item('deleted', 'ready', '2026-11-21T06:00:01.000Z');
    const merged = mergeNewer([a], [a, added, deleted], (uuid) => uuid === 'added');
    expect(merged.map((i) => i.uuid)).toEqual(['a', 'added']);
  });
});
