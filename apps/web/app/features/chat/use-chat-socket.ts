import type { TMessageEvent } from '@cairn/contracts/chat';
import { useEffect, useRef } from 'react';

/**
 * Listens to `message` events on `/api/ws` (same origin, cookie-authenticated). `onReady` fires on
 * every (re)connection, so the caller can catch up on what it missed while the socket was down.
 */
export function useChatSocket(handlers: { onEvent: (event: TMessageEvent) => void; onReady: () => void }) {
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
          ref.current.onReady();
        } else if (frame.event === 'message') {
          ref.current.onEvent(frame.data as TMessageEvent);
        }
      };
      socket.onclose = () => {
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
  }, []);
}
