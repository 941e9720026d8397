import {
  REALTIME_READY,
  type TRealtimeEventName,
  type TRealtimeFrame,
  type TRealtimePayloads,
} from '@cairn/contracts/realtime';

export interface RealtimeHandlers<E extends TRealtimeEventName> {
  onEvent: (data: TRealtimePayloads[E]) => void;
  /**
   * The socket is subscribed: on every (re)connection, and at once for a subscriber that joins an
   * open socket. The caller catches up on what it missed before (its loader ran before it listened).
   */
  onReady?: () => void;
  onClose?: () => void;
}

interface Subscriber {
  event: TRealtimeEventName;
  handlers: RealtimeHandlers<TRealtimeEventName>;
}

/**
 * A navigation unsubscribes the old page's hooks before the new page's subscribe, and a page may
 * render a moment without any: the socket outlives its last subscriber this long, so the tab
 * keeps one connection instead of reopening it on every page.
 */
const IDLE_CLOSE_MS = 1000;

/**
 * The tab's one socket to `/api/ws` (same origin, authenticated by the auth_token cookie), shared
 * by every hook that listens to an event: opened by the first subscriber, reconnected with a
 * growing delay while anyone listens, closed once nobody has for `IDLE_CLOSE_MS`.
 */
const subscribers = new Set<Subscriber>();
let socket: WebSocket | undefined;
let ready = false;
let attempts = 0;
let retry: ReturnType<typeof setTimeout> | undefined;
let idle: ReturnType<typeof setTimeout> | undefined;

function open() {
  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/ws`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onmessage = (message) => {
    const frame = JSON.parse(String(message.data)) as TRealtimeFrame;
    if (frame.event === REALTIME_READY) {
      attempts = 0;
      ready = true;
      for (const s of [...subscribers]) s.handlers.onReady?.();
      return;
    }
    for (const s of [...subscribers]) if (s.event === frame.event) s.handlers.onEvent(frame.data);
  };
  ws.onclose = () => {
    // A socket closed on purpose (nobody listens any more) has been replaced or dropped already.
    if (socket !== ws) return;
    socket = undefined;
    ready = false;
    for (const s of [...subscribers]) s.handlers.onClose?.();
    attempts++;
    retry = setTimeout(
      () => {
        retry = undefined;
        open();
      },
      Math.min(30_000, 500 * 2 ** attempts),
    );
  };
}

function close() {
  clearTimeout(retry);
  retry = undefined;
  const ws = socket;
  socket = undefined;
  ready = false;
  attempts = 0;
  ws?.close();
}

/** Listens to one event of the tab's socket; returns the unsubscribe. */
export function subscribeRealtime<E extends TRealtimeEventName>(
  event: E,
  handlers: RealtimeHandlers<E>,
): () => void {
  // Handlers of `E` receive `E`'s payloads only: the frame's event is matched before each call.
  const subscriber = { event, handlers } as unknown as Subscriber;
  subscribers.add(subscriber);
  clearTimeout(idle);
  if (!socket && !retry) open();
  else if (ready) {
    queueMicrotask(() => {
      if (ready && subscribers.has(subscriber)) handlers.onReady?.();
    });
  }
  return () => {
    subscribers.delete(subscriber);
    if (subscribers.size === 0) idle = setTimeout(close, IDLE_CLOSE_MS);
  };
}
