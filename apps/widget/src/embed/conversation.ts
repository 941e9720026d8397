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

/**
 * Applies one event of the visitor's stream. Returns `'refetch'` when the event cannot be applied
 * (a delta that does not continue the text held), as the owner's app does: the conversation is then
 * read again.
 */
export function applyEvent(state: ConversationState, event: TWidgetEvent): ConversationState | 'refetch' {
  // Before its first message is answered (or after "new conversation") the chat holds none: the
  // send's own answer brings it, and events of an earlier conversation stay out.
  const about = event.kind === 'conversation' ? event.conversation.uuid : event.conversation_uuid;
  if (!state.conversation || about !== state.conversation.uuid) return state;
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
