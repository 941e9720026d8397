import { useEffect, useRef } from 'react';

export type RealtimeEventName = 'message' | 'kb_updates' | 'notification';

interface Handlers<T> {
  onEvent: (data: T) => void;
  /** Every (re)connection: the caller catches up on what it missed while the socket was down. */
  onReady?: () => void;
  onClose?: () => void;
}

/**
 * Subscribes to one event of `/api/ws` (same origin, authenticated by the auth_token cookie) and
 * reconnects with a growing delay when the socket drops.
 */
export function useRealtime<T>(event: RealtimeEventName, handlers: Handlers<T>) {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let stopped = false;
    const open = () => {
      socket = new WebSocket(
        `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/ws`,
      );
      socket.onmessage = (message) => {
        const frame = JSON.parse(String(message.data)) as { event: string; data: unknown };
        if (frame.event === 'ready') {
          attempts = 0;
          ref.current.onReady?.();
        } else if (frame.event === event) {
          ref.current.onEvent(frame.data as T);
        }
      };
      socket.onclose = () => {
        ref.current.onClose?.();
        if (stopped) return;
        attempts++;
        retry = setTimeout(open, Math.min(30_000, 500 * 2 ** attempts));
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [event]);
}
