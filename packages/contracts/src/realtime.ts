import type { TMessageEvent } from './chat.ts';
import type { TKbUpdateEvent } from './knowledge.ts';
import type { TNotification } from './notifications.ts';

/**
 * The events of the owner's socket (`/api/ws`, spec §3). Each frame is `{ event, data }`; the first
 * one, `ready`, says the socket is subscribed (a client catches up on what it missed from there).
 * Types only besides the names: the browser imports this without zod.
 */
export const REALTIME_EVENTS = ['message', 'kb_updates', 'notification'] as const;
export type TRealtimeEventName = (typeof REALTIME_EVENTS)[number];

/** What each event carries. */
export interface TRealtimePayloads {
  message: TMessageEvent;
  kb_updates: TKbUpdateEvent;
  notification: TNotification;
}

/** The first frame of every connection. */
export const REALTIME_READY = 'ready';

export type TRealtimeFrame =
  | { [E in TRealtimeEventName]: { event: E; data: TRealtimePayloads[E] } }[TRealtimeEventName]
  | { event: typeof REALTIME_READY; data: { user_id: number } };
