import { describe, expect, it } from 'vitest';
import { applyDelta, isOlderCopy, type TMergeable, upsertMessages } from './chat-merge.ts';

// The owner's shape (text in `message`, `updated_at`) and the visitor's (text in `text`, none).
type Owner = TMergeable<'message'> & { id: number };
type Visitor = TMergeable<'text'> & { created_at: string };
const owner = (over: Partial<Owner>): Owner => ({
  id: 1,
  uuid: 'm1',
  message: '',
  status: 'pending',
  run: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const visitor = (over: Partial<Visitor>): Visitor => ({
  uuid: 'm1',
  text: '',
  status: 'pending',
  run: 1,
  created_at: '2026-11-22T10:00:01.000Z',
  ...over,
});
const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`;
const byId = (a: Owner, b: Owner) => a.id - b.id;
const delta = (offset: number, text: string, run: number) => ({
  message_uuid: 'm1',
  run,
  offset,
  delta: text,
});

describe('which copy of a message is newer', () => {
  it('a later run, whatever its state', () => {
    expect(isOlderCopy('message', owner({ run: 1 }), owner({ status: 'complete', message: 'Done' }))).toBe(
      false,
    );
    expect(isOlderCopy('message', owner({ status: 'complete' }), owner({ run: 1 }))).toBe(true);
  });

  it('in one run, a finished copy over an unfinished one, both ways (the web app let an `updated` event take a finished answer back)', () => {
    const done = owner({ message: 'Done', status: 'complete' });
    const streaming = owner({ message: 'Done and more', status: 'streaming' });
    expect(isOlderCopy('message', streaming, done)).toBe(true);
    expect(isOlderCopy('message', done, streaming)).toBe(false);
  });

  it('two finished copies: the later change (the web app kept the held one on a tie; a tie now takes the incoming)', () => {
    const stopped = (second: number) => owner({ status: 'stopped', updated_at: at(second) });
    expect(isOlderCopy('message', stopped(1), stopped(2))).toBe(true);
    expect(isOlderCopy('message', stopped(3), stopped(2))).toBe(false);
    expect(isOlderCopy('message', stopped(2), stopped(2))).toBe(false);
  });

  it("two finished copies without `updated_at` (the widget's): the incoming one", () => {
    const done = visitor({ text: 'Done', status: 'complete' });
    expect(isOlderCopy('text', { ...done, text: 'Do' }, done)).toBe(false);
  });

  it('two unfinished copies: the one with less text is older, a tie takes the incoming (the web app kept the held one)', () => {
    const park = visitor({ text: 'Park', status: 'streaming' });
    expect(isOlderCopy('text', visitor({}), park)).toBe(true);
    expect(isOlderCopy('text', park, visitor({}))).toBe(false);
    expect(isOlderCopy('text', visitor({ status: 'streaming' }), visitor({}))).toBe(false);
  });
});

describe('upsertMessages', () => {
  it('keeps each message once, the newer copy, in the given order, and the held ones the incoming lack', () => {
    const held = [owner({ id: 2, uuid: 'm2', message: 'partial answer', status: 'streaming' })];
    const merged = upsertMessages(
      'message',
      held,
      [owner({ id: 2, uuid: 'm2', message: 'part', status: 'streaming' }), owner({ id: 1, uuid: 'm0' })],
      byId,
    );
    expect(merged.map((m) => [m.uuid, m.message])).toEqual([
      ['m0', ''],
      ['m2', 'partial answer'],
    ]);
    expect(held).toHaveLength(1);
  });
});

describe('applyDelta', () => {
  it('appends at the exact offset and marks the answer streaming; a repeated delta changes nothing', () => {
    let list = [owner({})];
    list = applyDelta('message', list, delta(0, 'Hel', 0)).messages;
    list = applyDelta('message', list, delta(3, 'lo', 0)).messages;
    expect(list[0]).toMatchObject({ message: 'Hello', status: 'streaming' });
    const again = applyDelta('message', list, delta(0, 'Hel', 0));
    expect(again).toEqual({ messages: list, gap: false });
    expect(again.messages).toBe(list);
  });

  it('reports a gap past the held text, and for a message it does not hold', () => {
    const list = [visitor({ text: 'Park', status: 'streaming' })];
    expect(applyDelta('text', list, delta(9, 'x', 1))).toEqual({ messages: list, gap: true });
    expect(applyDelta('text', [], delta(0, 'x', 1)).gap).toBe(true);
  });

  it('ignores a delta of an earlier run (the widget read the conversation again)', () => {
    const list = [visitor({ run: 2, status: 'streaming', text: 'New' })];
    const result = applyDelta('text', list, delta(3, ' stale', 1));
    expect(result).toEqual({ messages: list, gap: false });
  });

  it('reports a gap for a delta of a later run (the web app started the text over): the read brings the run', () => {
    const list = [owner({ message: 'old', status: 'complete' })];
    expect(applyDelta('message', list, delta(0, 'new', 1))).toEqual({ messages: list, gap: true });
  });

  it('ignores any delta of a finished answer (the widget appended one that continued it, and marked it streaming again)', () => {
    const list = [visitor({ text: 'Visitors may', status: 'stopped' })];
    expect(applyDelta('text', list, delta(12, ' climb', 1))).toEqual({ messages: list, gap: false });
    expect(applyDelta('text', list, delta(20, 'x', 1))).toEqual({ messages: list, gap: false });
  });
});
