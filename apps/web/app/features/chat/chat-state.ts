import { isInSidebar, type TChatroom, type TMessage, type TMessageEvent } from '@cairn/contracts/chat';
import { VISITOR_SENDER_PREFIX } from '../../lib/contract-constants';

/** A message as the view holds it: the server's, or a local one still being sent (or failed to). */
export interface ChatMessage extends TMessage {
  local?: { state: 'sending' | 'failed'; error?: string };
}

const FINAL = new Set(['complete', 'stopped', 'failed']);
export const isInProgress = (m: TMessage) => m.status === 'pending' || m.status === 'streaming';

/** Which of two copies of one message is newer: a later run, then a final status, then more text. */
function newer(a: TMessage, b: TMessage): TMessage {
  if (a.run !== b.run) return a.run > b.run ? a : b;
  if (FINAL.has(a.status) !== FINAL.has(b.status)) return FINAL.has(a.status) ? a : b;
  if (FINAL.has(a.status) && FINAL.has(b.status)) return a.updated_at >= b.updated_at ? a : b;
  return a.message.length >= b.message.length ? a : b;
}

/**
 * Merges the server's list (a load or a catch-up after a reconnect) into what the view holds:
 * each message once (by uuid), the newer copy kept, local unsent messages kept at the end.
 */
export function mergeMessages(current: ChatMessage[], incoming: TMessage[]): ChatMessage[] {
  const byUuid = new Map(current.filter((m) => !m.local).map((m) => [m.uuid, m] as const));
  const merged: ChatMessage[] = incoming.map((m) => {
    const held = byUuid.get(m.uuid);
    return held ? newer(held, m) : m;
  });
  const known = new Set(merged.map((m) => m.uuid));
  for (const m of current) if (!m.local && !known.has(m.uuid)) merged.push(m);
  merged.sort((a, b) => a.id - b.id);
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
 * Applies one realtime event of this chatroom. Deltas are applied only at their exact offset, so
 * a repeated delta changes nothing and a missing one is reported as a gap (the caller refetches).
 */
export function applyEvent(messages: ChatMessage[], event: TMessageEvent): ApplyResult {
  if (event.kind === 'created' || event.kind === 'updated') {
    const m = event.message;
    const at = messages.findIndex((x) => x.uuid === m.uuid);
    if (at >= 0) {
      const next = messages.slice();
      next[at] =
        event.kind === 'updated'
          ? ({ ...newerForUpdate(messages[at]!, m) } as ChatMessage)
          : newer(messages[at]!, m);
      return { messages: next, gap: false };
    }
    // The optimistic copy of this very message (the event can beat the POST's answer).
    const local = messages.findIndex(
      (x) =>
        x.local?.state === 'sending' &&
        x.message === m.message &&
        x.sender_identifier === m.sender_identifier,
    );
    if (local >= 0) {
      const next = messages.slice();
      next[local] = m;
      return { messages: next, gap: false };
    }
    const next = [...messages.filter((x) => !x.local), m].sort((a, b) => a.id - b.id);
    return { messages: [...next, ...messages.filter((x) => x.local)], gap: false };
  }
  if (event.kind === 'delta') {
    const at = messages.findIndex((x) => x.uuid === event.message_uuid);
    if (at < 0) return { messages, gap: true };
    const m = messages[at]!;
    if (event.run < m.run || (FINAL.has(m.status) && event.run === m.run)) return { messages, gap: false };
    const text = event.run > m.run ? '' : m.message;
    if (event.offset < text.length) return { messages, gap: false };
    if (event.offset > text.length) return { messages, gap: true };
    const next = messages.slice();
    next[at] = { ...m, run: event.run, status: 'streaming', message: text + event.delta };
    return { messages: next, gap: false };
  }
  return { messages, gap: false };
}

/**
 * An `updated` event is the server's word, except that it never takes a message back to an older
 * run, nor a finished answer back to an earlier finished copy: a stop's own response can arrive
 * after the event with the text the answering process stored when it stopped.
 */
function newerForUpdate(held: TMessage, incoming: TMessage): TMessage {
  if (incoming.run < held.run) return held;
  const bothFinal = incoming.run === held.run && FINAL.has(held.status) && FINAL.has(incoming.status);
  if (bothFinal && held.updated_at > incoming.updated_at) return held;
  return incoming;
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
