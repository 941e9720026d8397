import type { TWidgetConversation, TWidgetEvent, TWidgetMessage } from '@cairn/contracts/widget';

/** What the chat shows: one conversation of this visitor (none before the first message). */
export interface ConversationState {
  conversation: TWidgetConversation | null;
  messages: TWidgetMessage[];
}

export const EMPTY: ConversationState = { conversation: null, messages: [] };

/** Adds or replaces messages by uuid, keeping the order they were written in. */
export function mergeMessages(messages: TWidgetMessage[], incoming: TWidgetMessage[]): TWidgetMessage[] {
  const next = [...messages];
  for (const message of incoming) {
    const at = next.findIndex((m) => m.uuid === message.uuid);
    if (at === -1) next.push(message);
    // A late event never rolls back a newer run or a finished text.
    else if (!isOlder(message, next[at]!)) next[at] = message;
  }
  return next.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

function isOlder(incoming: TWidgetMessage, held: TWidgetMessage): boolean {
  if (incoming.run !== held.run) return incoming.run < held.run;
  const done = (m: TWidgetMessage) => m.status !== 'pending' && m.status !== 'streaming';
  if (done(incoming)) return false;
  // A snapshot taken before deltas already applied (the send's own answer) is older too.
  return done(held) || incoming.text.length < held.text.length;
}

/** The conversation an event of the visitor's stream is about. */
export const conversationOf = (event: TWidgetEvent) =>
  event.kind === 'conversation' ? event.conversation.uuid : event.conversation_uuid;

/**
 * Applies one event of the visitor's stream. Returns `'refetch'` when the event cannot be applied
 * (a delta that does not continue the text held), as the owner's app does: the conversation is then
 * read again.
 */
export function applyEvent(state: ConversationState, event: TWidgetEvent): ConversationState | 'refetch' {
  // Before its first message is answered (or after "new conversation") the chat holds none: the
  // send's own answer brings it (the chat keeps the events meanwhile, see `applyKept`), and events
  // of an earlier conversation stay out.
  if (!state.conversation || conversationOf(event) !== state.conversation.uuid) return state;
  if (event.kind === 'conversation') return { ...state, conversation: event.conversation };
  if (event.kind === 'delta') {
    const held = state.messages.find((m) => m.uuid === event.message_uuid);
    if (!held || held.run !== event.run || held.text.length !== event.offset) {
      return held && held.run === event.run && held.text.length > event.offset ? state : 'refetch';
    }
    return {
      ...state,
      messages: state.messages.map((m) =>
        m === held ? { ...m, text: m.text + event.delta, status: 'streaming' } : m,
      ),
    };
  }
  return { ...state, messages: mergeMessages(state.messages, [event.message]) };
}

/** An answer is still being written. */
export const isAnswering = (state: ConversationState) =>
  state.messages.some((m) => m.role === 'assistant' && (m.status === 'pending' || m.status === 'streaming'));

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
