import type { TChatroom, TMessage, TMessageEvent } from '@cairn/contracts/chat';
import { applyDelta, upsertMessages } from '@cairn/contracts/chat-merge';
import { isInSidebar } from '@cairn/contracts/chatroom-rules';
import { VISITOR_SENDER_PREFIX } from '@cairn/contracts/message-rules';

/** A message as the view holds it: the server's, or a local one still being sent (or failed to). */
export interface ChatMessage extends TMessage {
  local?: { state: 'sending' | 'failed'; error?: string };
}

/** The list's order: as the server stored them (ids grow), local unsent messages last. */
const byId = (a: TMessage, b: TMessage) => a.id - b.id;
const serverOnly = (messages: ChatMessage[]): TMessage[] => messages.filter((m) => !m.local);

/**
 * Merges the server's list (a load or a catch-up after a reconnect) into what the view holds:
 * each message once (by uuid), the newer copy kept (`@cairn/contracts/chat-merge`), local unsent
 * messages kept at the end unless the list holds their stored copy.
 */
export function mergeMessages(current: ChatMessage[], incoming: TMessage[]): ChatMessage[] {
  const merged = upsertMessages('message', serverOnly(current), incoming, byId);
  const locals = current.filter((m) => m.local && !merged.some((s) => sameSend(m, s)));
  return [...merged, ...locals];
}

/** A server message that is the stored copy of a local optimistic one. */
function sameSend(local: ChatMessage, server: TMessage) {
  return (
    local.local?.state === 'sending' &&
    server.sender_identifier === local.sender_identifier &&
    server.message === local.message
  );
}

export type ApplyResult = { messages: ChatMessage[]; gap: boolean };

/**
 * Applies one realtime event of this chatroom by the rules shared with the widget
 * (`@cairn/contracts/chat-merge`): a copy of a message never replaces a newer one, a delta is
 * applied only at its exact offset and a missing one is reported as a gap (the caller refetches).
 */
export function applyEvent(messages: ChatMessage[], event: TMessageEvent): ApplyResult {
  if (event.kind === 'created' || event.kind === 'updated') {
    const m = event.message;
    // The optimistic copy of this very message gives way to it (the event can beat the POST's answer).
    const local = messages.some((x) => x.uuid === m.uuid) ? -1 : messages.findIndex((x) => sameSend(x, m));
    const rest = local >= 0 ? messages.filter((_, i) => i !== local) : messages;
    const server = upsertMessages('message', serverOnly(rest), [m], byId);
    return { messages: [...server, ...rest.filter((x) => x.local)], gap: false };
  }
  if (event.kind === 'delta') return applyDelta('message', messages, event);
  return { messages, gap: false };
}

/** What the view needs to know about the chatroom itself: where it came from and who answers in it. */
export type ChatroomState = Pick<
  TChatroom,
  'uuid' | 'source' | 'handled_by' | 'waiting_since' | 'started_on'
>;

/** Who a widget chatroom is with right now, as the handling bar says it. */
export type Handling = 'assistant' | 'human' | 'waiting';
export const handlingOf = (room: Pick<TChatroom, 'handled_by' | 'waiting_since'>): Handling =>
  room.waiting_since ? 'waiting' : room.handled_by;

/** A widget visitor's message (`visitor_<uuid>`). */
export const isVisitorMessage = (m: Pick<TMessage, 'sender_identifier'>) =>
  m.sender_identifier.startsWith(`${VISITOR_SENDER_PREFIX}_`);

/** The name a person's reply to a visitor carries (`metadata.sender_name`), if any. */
export const senderNameOf = (m: Pick<TMessage, 'metadata'>): string | null =>
  typeof m.metadata.sender_name === 'string' && m.metadata.sender_name.trim() ? m.metadata.sender_name : null;

/**
 * The sidebar's chatroom list after one realtime event: a changed chatroom is replaced (a newer
 * message moves it to the top), a new one is added at the top, a deleted one leaves. Only rooms
 * the sidebar lists (`isInSidebar`: the owner's chats, and those a person waits in or answers)
 * are kept: an API conversation never enters, a widget one enters when its visitor asks for a
 * person and leaves when the assistant has it back. Events of other applications and message
 * events change nothing.
 */
export function applyChatroomEvent<T extends { uuid: string; last_message_at?: string | null }>(
  list: T[],
  event: TMessageEvent,
  appId: string,
): T[] {
  if (event.application_uuid !== appId) return list;
  if (event.kind === 'chatroom_deleted') {
    return list.some((c) => c.uuid === event.chatroom_uuid)
      ? list.filter((c) => c.uuid !== event.chatroom_uuid)
      : list;
  }
  if (event.kind !== 'chatroom') return list;
  const at = list.findIndex((c) => c.uuid === event.chatroom_uuid);
  if (!isInSidebar(event.chatroom)) return at >= 0 ? list.filter((_, i) => i !== at) : list;
  const held = at >= 0 ? list[at]! : undefined;
  const next = { ...held, ...event.chatroom } as unknown as T;
  const moved = !held || (event.chatroom.last_message_at ?? '') > (held.last_message_at ?? '');
  if (!moved) return list.map((c, i) => (i === at ? next : c));
  return [next, ...list.filter((c) => c.uuid !== event.chatroom_uuid)];
}

/**
 * A list read from the server with the chatroom events received since the last list replayed on
 * top, in order: a list whose request was under way when an event arrived is older than that event.
 * Replaying one it already reflects is harmless, as every change to a chatroom sends an event.
 */
export function replayChatroomEvents<T extends { uuid: string; last_message_at?: string | null }>(
  list: T[],
  events: TMessageEvent[],
  appId: string,
): T[] {
  return events.reduce((rooms, event) => applyChatroomEvent(rooms, event, appId), list);
}
