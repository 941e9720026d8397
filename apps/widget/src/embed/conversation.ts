import { applyDelta, upsertMessages } from '@cairn/contracts/chat-merge';
import { isInProgress } from '@cairn/contracts/message-rules';
import type { TWidgetConversation, TWidgetEvent, TWidgetMessage } from '@cairn/contracts/widget';

/** What the chat shows: one conversation of this visitor (none before the first message). */
export interface ConversationState {
  conversation: TWidgetConversation | null;
  messages: TWidgetMessage[];
}

export const EMPTY: ConversationState = { conversation: null, messages: [] };

/** Written order: the visitor's messages carry no id, only when they were written. */
const byCreatedAt = (a: TWidgetMessage, b: TWidgetMessage) => a.created_at.localeCompare(b.created_at);

/** Adds or replaces messages by uuid (a late copy never rolls back a newer one), in written order. */
export const mergeMessages = (messages: TWidgetMessage[], incoming: TWidgetMessage[]): TWidgetMessage[] =>
  upsertMessages('text', messages, incoming, byCreatedAt);

/** The conversation an event of the visitor's stream is about. */
export const conversationOf = (event: TWidgetEvent) =>
  event.kind === 'conversation' ? event.conversation.uuid : event.conversation_uuid;

/**
 * Applies one event of the visitor's stream by the rules the owner's app follows too
 * (`@cairn/contracts/chat-merge`). Returns `'refetch'` when the event cannot be applied (a delta
 * that does not continue the text held): the conversation is then read again.
 */
export function applyEvent(state: ConversationState, event: TWidgetEvent): ConversationState | 'refetch' {
  // Before its first message is answered (or after "new conversation") the chat holds none: the
  // send's own answer brings it (the chat keeps the events meanwhile, see `applyKept`), and events
  // of an earlier conversation stay out.
  if (!state.conversation || conversationOf(event) !== state.conversation.uuid) return state;
  if (event.kind === 'conversation') return { ...state, conversation: event.conversation };
  if (event.kind === 'delta') {
    const { messages, gap } = applyDelta('text', state.messages, event);
    if (gap) return 'refetch';
    return messages === state.messages ? state : { ...state, messages };
  }
  return { ...state, messages: mergeMessages(state.messages, [event.message]) };
}

/** An answer is still being written. */
export const isAnswering = (state: ConversationState) =>
  state.messages.some((m) => m.role === 'assistant' && isInProgress(m));

/**
 * The stream's events kept while a send is under way: a new conversation's answer starts streaming
 * before the send returns and names it. At most `EVENTS_KEPT`, the oldest dropped first (`dropped`
 * then says the conversation must be read again).
 */
export interface KeptEvents {
  events: TWidgetEvent[];
  dropped: boolean;
}
export const EVENTS_KEPT = 1000;
export const NO_EVENTS: KeptEvents = { events: [], dropped: false };

export function keepEvent(kept: KeptEvents, event: TWidgetEvent, max = EVENTS_KEPT): KeptEvents {
  const events = [...kept.events, event];
  if (events.length <= max) return { events, dropped: kept.dropped };
  return { events: events.slice(events.length - max), dropped: true };
}

/**
 * Applies, in the order they came, the kept events of the conversation the state now holds (the
 * others are not this chat's). `refetch` is set when some could not be applied or were dropped.
 */
export function applyKept(
  state: ConversationState,
  kept: KeptEvents,
): { state: ConversationState; refetch: boolean } {
  let next = state;
  let refetch = kept.dropped;
  for (const event of kept.events) {
    if (conversationOf(event) !== next.conversation?.uuid) continue;
    const applied = applyEvent(next, event);
    if (applied === 'refetch') refetch = true;
    else next = applied;
  }
  return { state: next, refetch };
}

/**
 * Runs `read` at most once at a time per conversation. Asked again while it runs, it runs once more
 * when done (announcing if any of those asks wanted to), however often it was asked: a burst of
 * gaps in the stream costs two reads, not one each. A read that fails (`false`) is not repeated.
 */
export function oneReadAtATime(
  read: (uuid: string, announce: boolean) => Promise<boolean>,
): (uuid: string, announce?: boolean) => Promise<void> {
  const running = new Map<string, { again: boolean; announce: boolean }>();
  return async (uuid, announce = false) => {
    const asked = running.get(uuid);
    if (asked) {
      asked.again = true;
      asked.announce ||= announce;
      return;
    }
    const meanwhile = { again: false, announce: false };
    running.set(uuid, meanwhile);
    try {
      let ok = await read(uuid, announce);
      while (ok && meanwhile.again) {
        const again = meanwhile.announce;
        meanwhile.again = false;
        meanwhile.announce = false;
        ok = await read(uuid, again);
      }
    } finally {
      running.delete(uuid);
    }
  };
}
