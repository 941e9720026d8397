import type { TWidgetConversation, TWidgetMessage } from '@cairn/contracts/widget';
import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  applyKept,
  type ConversationState,
  EMPTY,
  isAnswering,
  keepEvent,
  mergeMessages,
  NO_EVENTS,
  oneReadAtATime,
} from './conversation';

const conversation: TWidgetConversation = {
  uuid: 'c1',
  handled_by: 'assistant',
  waiting_since: null,
  created_at: '2026-11-22T10:00:00.000Z',
};
const msg = (over: Partial<TWidgetMessage>): TWidgetMessage => ({
  uuid: 'm1',
  role: 'assistant',
  author_name: null,
  text: '',
  status: 'pending',
  run: 1,
  sources: [],
  feedback: null,
  not_covered: false,
  notice: false,
  created_at: '2026-11-22T10:00:01.000Z',
  ...over,
});
const state = (messages: TWidgetMessage[]): ConversationState => ({ conversation, messages });
const delta = (offset: number, text: string, run = 1) =>
  ({ kind: 'delta', conversation_uuid: 'c1', message_uuid: 'm1', run, offset, delta: text }) as const;

describe('the widget conversation', () => {
  it('applies deltas that continue the text, and asks for a refetch when one is missing', () => {
    let s = applyEvent(state([msg({})]), delta(0, 'Park'));
    expect(s).not.toBe('refetch');
    s = applyEvent(s as ConversationState, delta(4, 'ing'));
    expect((s as ConversationState).messages[0]).toMatchObject({ text: 'Parking', status: 'streaming' });
    expect(isAnswering(s as ConversationState)).toBe(true);
    // A delta already applied (seen again after a refetch) changes nothing.
    expect(applyEvent(s as ConversationState, delta(0, 'Park'))).toBe(s);
    // A gap, another run, or an unknown message: read the conversation again.
    expect(applyEvent(s as ConversationState, delta(9, 'x'))).toBe('refetch');
    expect(applyEvent(s as ConversationState, delta(0, 'x', 2))).toBe('refetch');
    expect(applyEvent(state([]), delta(0, 'x'))).toBe('refetch');
  });

  it('ignores events of another conversation, and all events before it has one', () => {
    const other = { kind: 'created', conversation_uuid: 'c2', message: msg({ uuid: 'm9' }) } as const;
    const s = state([msg({})]);
    expect(applyEvent(s, other)).toBe(s);
    expect(applyEvent(EMPTY, { ...other, conversation_uuid: 'c1' })).toBe(EMPTY);
    expect(applyEvent(EMPTY, { kind: 'conversation', conversation })).toBe(EMPTY);
  });

  it('takes the conversation state (a person handling it) and new messages', () => {
    let s = applyEvent(state([]), {
      kind: 'conversation',
      conversation: { ...conversation, handled_by: 'human', waiting_since: '2026-11-22T10:01:00.000Z' },
    }) as ConversationState;
    expect(s.conversation?.handled_by).toBe('human');
    s = applyEvent(s, {
      kind: 'created',
      conversation_uuid: 'c1',
      message: msg({ uuid: 'h1', role: 'human', author_name: 'Ada', text: 'Hello', status: 'complete' }),
    }) as ConversationState;
    expect(s.messages.map((m) => m.author_name)).toEqual(['Ada']);
  });

  it('keeps written order and never rolls a finished message back to an older state', () => {
    const done = msg({ text: 'Done', status: 'complete' });
    const late = msg({ text: 'Do', status: 'streaming' });
    expect(mergeMessages([done], [late])).toEqual([done]);
    const regenerated = msg({ text: '', status: 'pending', run: 2 });
    expect(mergeMessages([done], [regenerated])).toEqual([regenerated]);
    // The send's own snapshot of the answer, older than the deltas already applied, changes nothing.
    const streamed = msg({ text: 'Park', status: 'streaming' });
    expect(mergeMessages([streamed], [msg({})])).toEqual([streamed]);
    expect(mergeMessages([msg({})], [streamed])).toEqual([streamed]);
    const first = msg({ uuid: 'q', role: 'visitor', created_at: '2026-11-22T10:00:00.500Z' });
    expect(mergeMessages([done], [first]).map((m) => m.uuid)).toEqual(['q', 'm1']);
  });

  it('keeps events while a send is under way, at most so many, saying when some were dropped', () => {
    let kept = NO_EVENTS;
    for (const [offset, text] of [
      [0, 'a'],
      [1, 'b'],
      [2, 'c'],
    ] as const)
      kept = keepEvent(kept, delta(offset, text), 2);
    expect(kept.events.map((e) => e.kind === 'delta' && e.delta)).toEqual(['b', 'c']);
    expect(kept.dropped).toBe(true);
    expect(keepEvent(NO_EVENTS, delta(0, 'a')).dropped).toBe(false);
  });

  it("applies the kept events of the conversation the send returned, in order, and no other's", () => {
    // The send's answer: the conversation, its question and the answer as it started.
    const sent = state([msg({ uuid: 'q', role: 'visitor', text: 'Hi', status: 'complete' }), msg({})]);
    let kept = NO_EVENTS;
    kept = keepEvent(kept, { kind: 'created', conversation_uuid: 'c1', message: msg({}) });
    kept = keepEvent(kept, delta(0, 'Park'));
    kept = keepEvent(kept, { kind: 'created', conversation_uuid: 'c2', message: msg({ uuid: 'x' }) });
    kept = keepEvent(kept, delta(4, 'ing'));
    const { state: next, refetch } = applyKept(sent, kept);
    expect(refetch).toBe(false);
    expect(next.messages.map((m) => [m.uuid, m.text])).toEqual([
      ['q', 'Hi'],
      ['m1', 'Parking'],
    ]);
    // A snapshot that already holds part of the text: what it holds is not applied twice.
    const ahead = applyKept(state([msg({ text: 'Park', status: 'streaming' })]), kept);
    expect(ahead.state.messages[0]!.text).toBe('Parking');
    expect(ahead.refetch).toBe(false);
  });

  it('asks for a read when a kept event does not continue the text, or some were dropped', () => {
    const gap = applyKept(state([msg({})]), keepEvent(NO_EVENTS, delta(4, 'ing')));
    expect(gap).toEqual({ state: state([msg({})]), refetch: true });
    const dropped = keepEvent(keepEvent(NO_EVENTS, delta(0, 'Park'), 1), delta(4, 'ing'), 1);
    expect(applyKept(state([msg({ text: 'Park', status: 'streaming' })]), dropped)).toMatchObject({
      state: { messages: [{ text: 'Parking' }] },
      refetch: true,
    });
  });

  it('reads a conversation once at a time: asked again meanwhile, once more after', async () => {
    const reads: { uuid: string; announce: boolean; done: (ok: boolean) => void }[] = [];
    const load = oneReadAtATime(
      (uuid, announce) => new Promise<boolean>((done) => reads.push({ uuid, announce, done })),
    );
    const settle = () => new Promise((r) => setTimeout(r, 0));
    void load('c1');
    void load('c1');
    void load('c1', true);
    void load('c1');
    void load('c2');
    expect(reads.map((r) => r.uuid)).toEqual(['c1', 'c2']);
    reads[0]!.done(true);
    await settle();
    // One follow-up for the three asks, announcing since one of them wanted it.
    expect(reads.slice(2)).toMatchObject([{ uuid: 'c1', announce: true }]);
    reads[2]!.done(true);
    await settle();
    expect(reads).toHaveLength(3);
    // Done: the next ask reads at once; a failed read is not repeated.
    void load('c1');
    void load('c1');
    expect(reads).toHaveLength(4);
    reads[3]!.done(false);
    await settle();
    expect(reads).toHaveLength(4);
    void load('c1');
    expect(reads).toHaveLength(5);
  });
});
