import type { TMessage, TMessageEvent } from '@cairn/contracts/chat';
import { describe, expect, it } from 'vitest';
import { linkCitations } from './answer-markdown';
import { applyEvent, type ChatMessage, mergeMessages } from './chat-state';

const msg = (over: Partial<TMessage>): TMessage => ({
  id: 1,
  uuid: 'm1',
  sender_identifier: 'assistant',
  message: '',
  metadata: {},
  status: 'pending',
  run: 0,
  feedback: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const base = { application_uuid: 'a', chatroom_uuid: 'c' };
const delta = (offset: number, text: string, run = 0): TMessageEvent => ({
  kind: 'delta',
  ...base,
  message_uuid: 'm1',
  run,
  offset,
  delta: text,
});

describe('applyEvent', () => {
  it('applies deltas at their offset only: duplicates change nothing, a gap is reported', () => {
    let list: ChatMessage[] = [msg({})];
    list = applyEvent(list, delta(0, 'Hel')).messages;
    list = applyEvent(list, delta(0, 'Hel')).messages;
    list = applyEvent(list, delta(3, 'lo')).messages;
    expect(list[0]).toMatchObject({ message: 'Hello', status: 'streaming' });
    const gap = applyEvent(list, delta(9, 'x'));
    expect(gap.gap).toBe(true);
    expect(gap.messages[0]!.message).toBe('Hello');
  });

  it('starts over for a new run and ignores deltas of an older one', () => {
    let list: ChatMessage[] = [msg({ message: 'old', status: 'complete' })];
    list = applyEvent(list, {
      kind: 'updated',
      ...base,
      message: msg({ run: 1, status: 'pending' }),
    }).messages;
    list = applyEvent(list, delta(3, ' stale', 0)).messages;
    list = applyEvent(list, delta(0, 'new', 1)).messages;
    expect(list[0]).toMatchObject({ run: 1, message: 'new' });
  });

  it('replaces the optimistic copy of a message instead of showing it twice', () => {
    const local: ChatMessage = {
      ...msg({ uuid: 'local-1', sender_identifier: 'reg_1', message: 'Hi' }),
      local: { state: 'sending' },
    };
    const stored = msg({ id: 7, uuid: 'u7', sender_identifier: 'reg_1', message: 'Hi', status: 'complete' });
    const list = applyEvent([local], { kind: 'created', ...base, message: stored }).messages;
    expect(list).toEqual([stored]);
  });
});

describe('mergeMessages', () => {
  it('keeps each message once, the newer copy, sorted, with failed local messages last', () => {
    const streaming = msg({ id: 2, uuid: 'm2', message: 'partial answer', status: 'streaming' });
    const failed: ChatMessage = {
      ...msg({ uuid: 'local-x', sender_identifier: 'reg_1', message: 'oops' }),
      local: { state: 'failed', error: 'x' },
    };
    const merged = mergeMessages(
      [streaming, failed],
      [
        msg({ id: 1, uuid: 'm1', sender_identifier: 'reg_1', message: 'q', status: 'complete' }),
        msg({ id: 2, uuid: 'm2', message: 'part', status: 'streaming' }),
      ],
    );
    expect(merged.map((m) => [m.uuid, m.message])).toEqual([
      ['m1', 'q'],
      ['m2', 'partial answer'],
      ['local-x', 'oops'],
    ]);
    const done = mergeMessages(merged, [msg({ id: 2, uuid: 'm2', message: 'final', status: 'complete' })]);
    expect(done.find((m) => m.uuid === 'm2')?.message).toBe('final');
  });
});

describe('linkCitations', () => {
  it('turns [n] into citation links outside code', () => {
    expect(linkCitations('A [1], B [2, 3]. `x[1]` [link](http://x)')).toBe(
      'A [1](#cite-1), B [2](#cite-2)[3](#cite-3). `x[1]` [link](http://x)',
    );
  });
});
