import type { TChatroom, TMessage, TMessageEvent } from '@cairn/contracts/chat';
import { describe, expect, it } from 'vitest';
import {
  applyChatroomEvent,
  applyEvent,
  type ChatMessage,
  handlingOf,
  isVisitorMessage,
  mergeMessages,
  replayChatroomEvents,
  senderNameOf,
} from './chat-state';

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

  it('keeps the text stored when an answer stopped, whichever of the stop and its event comes last', () => {
    const stopped = (text: string, at: string) =>
      msg({ message: text, status: 'stopped', updated_at: `2026-01-01T00:00:0${at}.000Z` });
    // The process that streamed it stores its text (later), then the stop's own response arrives.
    let list: ChatMessage[] = [msg({ message: 'Visitors may', status: 'streaming' })];
    list = applyEvent(list, {
      kind: 'updated',
      ...base,
      message: stopped('Visitors may climb', '2'),
    }).messages;
    list = applyEvent(list, { kind: 'updated', ...base, message: stopped('Visitors may', '1') }).messages;
    expect(list[0]).toMatchObject({ message: 'Visitors may climb', updated_at: '2026-01-01T00:00:02.000Z' });
    // A later change of the finished answer (its rating) still lands.
    const rated = { ...stopped('Visitors may climb', '3'), feedback: 'up' as const };
    list = applyEvent(list, { kind: 'updated', ...base, message: rated }).messages;
    expect(list[0]!.feedback).toBe('up');
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

const chatroom = (over: Partial<TChatroom>): TChatroom => ({
  uuid: 'c1',
  name: 'Parking',
  source: 'web',
  handled_by: 'assistant',
  waiting_since: null,
  started_on: 'https://shop.example.com/pricing',
  created_at: '2026-01-01T00:00:00.000Z',
  last_message_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('applyChatroomEvent', () => {
  const list = [chatroom({ uuid: 'c1' }), chatroom({ uuid: 'c2', name: 'Dogs' })];
  const event = (room: TChatroom, app = 'a'): TMessageEvent => ({
    kind: 'chatroom',
    application_uuid: app,
    chatroom_uuid: room.uuid,
    chatroom: room,
  });

  it('marks a chatroom waiting in place, and moves one with a newer message to the top', () => {
    const waiting = applyChatroomEvent(
      list,
      event(
        chatroom({
          uuid: 'c2',
          name: 'Dogs',
          handled_by: 'human',
          waiting_since: '2026-01-01T00:01:00.000Z',
        }),
      ),
      'a',
    );
    expect(waiting.map((c) => [c.uuid, c.waiting_since])).toEqual([
      ['c1', null],
      ['c2', '2026-01-01T00:01:00.000Z'],
    ]);
    const newer = applyChatroomEvent(
      waiting,
      event(chatroom({ uuid: 'c2', name: 'Dogs', last_message_at: '2026-01-01T00:02:00.000Z' })),
      'a',
    );
    expect(newer.map((c) => [c.uuid, c.waiting_since])).toEqual([
      ['c2', null],
      ['c1', null],
    ]);
  });

  it('adds a new chatroom at the top, drops a deleted one, ignores other applications', () => {
    const added = applyChatroomEvent(list, event(chatroom({ uuid: 'c3', name: 'New visitor' })), 'a');
    expect(added.map((c) => c.uuid)).toEqual(['c3', 'c1', 'c2']);
    const removed = applyChatroomEvent(
      added,
      { kind: 'chatroom_deleted', application_uuid: 'a', chatroom_uuid: 'c1' },
      'a',
    );
    expect(removed.map((c) => c.uuid)).toEqual(['c3', 'c2']);
    expect(applyChatroomEvent(list, event(chatroom({ uuid: 'c9' }), 'other'), 'a')).toBe(list);
  });

  it('keeps conversations nobody waits in out: an API one never enters, a waiting widget one enters and leaves when handed back', () => {
    const api = applyChatroomEvent(list, event(chatroom({ uuid: 'c3', source: 'api' })), 'a');
    expect(api).toBe(list);
    const visitor = chatroom({ uuid: 'c4', source: 'widget', last_message_at: '2026-01-01T00:03:00.000Z' });
    expect(applyChatroomEvent(list, event(visitor), 'a')).toBe(list);
    const waiting = applyChatroomEvent(
      list,
      event({ ...visitor, handled_by: 'human', waiting_since: '2026-01-01T00:03:00.000Z' }),
      'a',
    );
    expect(waiting.map((c) => c.uuid)).toEqual(['c4', 'c1', 'c2']);
    const answered = applyChatroomEvent(waiting, event({ ...visitor, handled_by: 'human' }), 'a');
    expect(answered.map((c) => c.uuid)).toEqual(['c4', 'c1', 'c2']);
    const handedBack = applyChatroomEvent(answered, event(visitor), 'a');
    expect(handedBack.map((c) => c.uuid)).toEqual(['c1', 'c2']);
  });

  it('replays the events since the last list on a list read before them, in order', () => {
    const waitingSince = '2026-01-01T00:01:00.000Z';
    // The server read the list before the visitor asked for a person and before c3 was deleted.
    const stale = [chatroom({ uuid: 'c3' }), ...list];
    const events: TMessageEvent[] = [
      event(chatroom({ uuid: 'c1', handled_by: 'human', waiting_since: waitingSince })),
      { kind: 'chatroom_deleted', application_uuid: 'a', chatroom_uuid: 'c3' },
    ];
    expect(replayChatroomEvents(stale, events, 'a').map((c) => [c.uuid, c.waiting_since])).toEqual([
      ['c1', waitingSince],
      ['c2', null],
    ]);
    // A later change (the owner took over) wins over the earlier one, whatever the list says.
    const tookOver = [...events, event(chatroom({ uuid: 'c1', handled_by: 'human', waiting_since: null }))];
    expect(replayChatroomEvents(list, tookOver, 'a')[0]).toMatchObject({ uuid: 'c1', waiting_since: null });
  });
});

describe('widget chatrooms', () => {
  it('says who handles the chatroom: waiting wins over the person it waits for', () => {
    expect(handlingOf(chatroom({}))).toBe('assistant');
    expect(handlingOf(chatroom({ handled_by: 'human' }))).toBe('human');
    expect(handlingOf(chatroom({ handled_by: 'human', waiting_since: '2026-01-01T00:00:00.000Z' }))).toBe(
      'waiting',
    );
  });

  it('tells visitors’ messages and named replies apart', () => {
    expect(isVisitorMessage(msg({ sender_identifier: 'visitor_0b0e5c1a-1111-4222-8333-444455556666' }))).toBe(
      true,
    );
    expect(isVisitorMessage(msg({ sender_identifier: 'reg_1' }))).toBe(false);
    expect(senderNameOf(msg({ sender_identifier: 'reg_1', metadata: { sender_name: 'Ada Lovelace' } }))).toBe(
      'Ada Lovelace',
    );
    expect(senderNameOf(msg({ sender_identifier: 'reg_1', metadata: { source: 'web' } }))).toBeNull();
  });
});
