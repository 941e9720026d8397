import { useState } from 'react';
import { applyChatroomEvent } from './chat-state';
import { useChatSocket } from './use-chat-socket';

/**
 * The sidebar's chatrooms, kept live by `chatroom` events on any page: a visitor's new conversation
 * appears, and one waiting for a person is marked, without a reload. New loader data (a
 * navigation, a revalidation) starts over from the server's list.
 */
export function useLiveChatrooms<T extends { uuid: string; last_message_at?: string | null }>(
  appId: string | undefined,
  listed: T[],
): T[] {
  const [state, setState] = useState({ listed, live: listed });
  // The list from the loader changed: it is the newer word.
  let current = state;
  if (state.listed !== listed) {
    current = { listed, live: listed };
    setState(current);
  }
  useChatSocket({
    onReady: () => {},
    onEvent(event) {
      if (!appId || (event.kind !== 'chatroom' && event.kind !== 'chatroom_deleted')) return;
      setState((s) => ({ ...s, live: applyChatroomEvent(s.live, event, appId) }));
    },
  });
  return current.live;
}
