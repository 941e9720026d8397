import type { TRealtimeEventName } from '@cairn/contracts/realtime';
import { useEffect, useRef } from 'react';
import { type RealtimeHandlers, subscribeRealtime } from './realtime-connection';

/**
 * Listens to one event of `/api/ws` through the tab's one socket (`realtime-connection.ts`), which
 * reconnects with a growing delay when it drops. The latest handlers are called: callers need not
 * memoise them.
 */
export function useRealtime<E extends TRealtimeEventName>(event: E, handlers: RealtimeHandlers<E>) {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(
    () =>
      subscribeRealtime(event, {
        onEvent: (data) => ref.current.onEvent(data),
        onReady: () => ref.current.onReady?.(),
        onClose: () => ref.current.onClose?.(),
      }),
    [event],
  );
}
