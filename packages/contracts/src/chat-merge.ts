import { isFinalStatus, type TMessageStatus } from './message-rules.ts';

/**
 * How a client merges a conversation's events and reads into the messages it shows: one set of
 * rules for the web app (the owner's messages, whose text is `message`) and the widget (the
 * visitor's, whose text is `text`); `textKey` names the field. Events may come twice, late, or out
 * of order across processes, and a read may be older than the events already applied: a copy of a
 * message never replaces a newer one, and a delta is applied only where it continues the text.
 * No zod here: the widget's small bundle imports this (decision 077).
 */

/** What the rules read of a message. `updated_at` is the owner's only (the widget's messages have none). */
export type TMergeable<K extends string> = {
  uuid: string;
  run: number;
  status: TMessageStatus;
  updated_at?: string;
} & { [P in K]: string };

/** A `delta` event of either stream: `delta` starts at `offset` in the text of run `run`. */
export interface TDeltaEvent {
  message_uuid: string;
  run: number;
  offset: number;
  delta: string;
}

/**
 * Whether `incoming` is an older copy of the message `held` than `held` itself: an earlier run; in
 * the same run, an unfinished copy of a finished answer, a finished copy changed before the held
 * one (a stop's own response arriving after the stopped answer's event), or an unfinished copy
 * with less text (a read taken before deltas already applied). Otherwise `incoming` is the newer.
 */
export function isOlderCopy<K extends string>(
  textKey: K,
  incoming: TMergeable<K>,
  held: TMergeable<K>,
): boolean {
  if (incoming.run !== held.run) return incoming.run < held.run;
  const incomingFinal = isFinalStatus(incoming.status);
  if (incomingFinal !== isFinalStatus(held.status)) return !incomingFinal;
  if (incomingFinal)
    return !!incoming.updated_at && !!held.updated_at && incoming.updated_at < held.updated_at;
  return incoming[textKey].length < held[textKey].length;
}

/** Adds or replaces messages by uuid (an older copy changes nothing), in the order `order` gives. */
export function upsertMessages<K extends string, M extends TMergeable<K>>(
  textKey: K,
  messages: readonly M[],
  incoming: readonly M[],
  order: (a: M, b: M) => number,
): M[] {
  const next = [...messages];
  for (const message of incoming) {
    const at = next.findIndex((m) => m.uuid === message.uuid);
    if (at === -1) next.push(message);
    else if (!isOlderCopy(textKey, message, next[at]!)) next[at] = message;
  }
  return next.sort(order);
}

/**
 * Applies a delta where it continues the held text of its run. A delta already applied, of an
 * earlier run, or of a finished answer changes nothing (the same array comes back); one of an
 * unknown message, of a later run, or past the held text is a `gap`: the caller reads the
 * conversation again, as the read holds the text stored so far and later deltas carry offsets.
 */
export function applyDelta<K extends string, M extends TMergeable<K>>(
  textKey: K,
  messages: M[],
  event: TDeltaEvent,
): { messages: M[]; gap: boolean } {
  const at = messages.findIndex((m) => m.uuid === event.message_uuid);
  if (at === -1) return { messages, gap: true };
  const held = messages[at]!;
  const text = held[textKey];
  if (event.run > held.run) return { messages, gap: true };
  if (event.run < held.run || isFinalStatus(held.status) || event.offset < text.length) {
    return { messages, gap: false };
  }
  if (event.offset > text.length) return { messages, gap: true };
  const next = messages.slice();
  next[at] = { ...held, [textKey]: text + event.delta, status: 'streaming' };
  return { messages: next, gap: false };
}
