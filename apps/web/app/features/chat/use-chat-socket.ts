import type { TMessageEvent } from '@cairn/contracts/chat';
import { useRealtime } from '../../lib/use-realtime';

/**
 * Listens to `message` events. `onReady` fires on every (re)connection, so the caller can catch up
 * on what it missed while the socket was down.
 */
export function useChatSocket(handlers: { onEvent: (event: TMessageEvent) => void; onReady: () => void }) {
  useRealtime('message', handlers);
}
