import type { TMessageEvent } from '@cairn/contracts/chat';
import { describe, expect, it } from 'vitest';
import { toWidgetEvent } from './widget-events.ts';

const delta = (visitor: string | undefined): TMessageEvent => ({
  kind: 'delta',
  application_uuid: 'app',
  chatroom_uuid: 'room-1',
  message_uuid: 'answer-1',
  run: 0,
  offset: 0,
  delta: 'We open at nine.',
  visitor_uuid: visitor,
});

describe("a visitor's stream", () => {
  it("takes an answer's events for its own conversation before it heard of the conversation", () => {
    // Another process may publish the answer's first delta before the chatroom's event arrives here.
    const mine = new Set<string>();
    expect(toWidgetEvent(delta('visitor-a'), mine, 'visitor-a', true)).toMatchObject({
      kind: 'delta',
      conversation_uuid: 'room-1',
      delta: 'We open at nine.',
    });
    expect(mine.has('room-1')).toBe(true);
  });

  it("drops another visitor's events, and events that name no visitor of a conversation it does not know", () => {
    const mine = new Set<string>();
    expect(toWidgetEvent(delta('visitor-b'), mine, 'visitor-a', true)).toBeNull();
    expect(toWidgetEvent(delta(undefined), mine, 'visitor-a', true)).toBeNull();
    expect(mine.size).toBe(0);
  });
});
