import type { TMessageEvent } from '@cairn/contracts/chat';
import { useState } from 'react';
import { applyChatroomEvent, replayChatroomEvents } from './chat-state';
import { useChatSocket } from './use-chat-socket';

/**
 * The sidebar's chatrooms, kept live by `chatroom` events on any page: a visitor's new conversation
 * appears, and one waiting for a person is marked, without a reload. New loader data (a
 * navigation, a revalidation) starts over from the server's list, with the events received since
 * the previous list replayed on top: the request may have been read before them.
 */
/** Events kept for the next list: a page open for hours without new loader data stays bounded. */
const MAX_REPLAYED = 500;

export function useLiveChatrooms<T extends { uuid: string; last_message_at?: string | null }>(
  appId: string | undefined,
  listed: T[],
): T[] {
  const [state, setState] = useState({ listed, live: listed, events: [] as TMessageEvent[] });
  let current = state;
  if (state.listed !== listed) {
    current = {
      listed,
      live: appId ? replayChatroomEvents(listed, state.events, appId) : listed,
      events: [],
    };
    setState(current);
  }
  useChatSocket({
    onReady: () => {},
    onEvent(event) {
      if (!appId || (event.kind !== 'chatroom' && event.kind !== 'chatroom_deleted')) return;
      setState((s) => ({
        ...s,
        live: applyChatroomEvent(s.live, event, appId),
        events: [...s.events.slice(1 - MAX_REPLAYED), event],
      }));
    },
  });
  return current.live;
}
