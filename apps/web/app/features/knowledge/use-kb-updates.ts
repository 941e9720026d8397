import type { TKbUpdateEvent, TKnowledgeItem } from '@cairn/contracts/knowledge';
import { useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';

/**
 * The application's items, kept live: starts from the loader's list and applies every
 * `kb_updates` event from `/api/ws` (same origin, authenticated by the auth_token cookie).
 * Reconnects with a growing delay when the socket drops. Each time the socket is (re)connected the
 * list is loaded again: events sent before the socket was listening (between the page's loader
 * and the connection, or while reconnecting) would otherwise be missed.
 */
export function useLiveItems(applicationUuid: string, initial: TKnowledgeItem[]) {
  const [items, setItems] = useState(initial);
  const [connected, setConnected] = useState(false);
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  // A new loader result (after an action, a navigation or a reconnect) is the new list; an item an
  // event already showed in a newer state keeps that state.
  useEffect(() => setItems((current) => mergeNewer(initial, current)), [initial]);

  useEffect(() => {
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let stopped = false;
    const open = () => {
      const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/ws`;
      socket = new WebSocket(url);
      socket.onmessage = (message) => {
        const frame = JSON.parse(String(message.data)) as { event: string; data: unknown };
        if (frame.event === 'ready') {
          attempts = 0;
          setConnected(true);
          void revalidate.current();
          return;
        }
        if (frame.event !== 'kb_updates') return;
        const update = frame.data as TKbUpdateEvent;
        if (update.application_uuid !== applicationUuid) return;
        setItems((current) => applyUpdate(current, update));
      };
      socket.onclose = () => {
        setConnected(false);
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
  }, [applicationUuid]);

  return { items, connected };
}

/** Applies one event: replace (if newer), append, or remove the item. */
export function applyUpdate(items: TKnowledgeItem[], update: TKbUpdateEvent): TKnowledgeItem[] {
  const index = items.findIndex((item) => item.uuid === update.item.uuid);
  if (update.deleted) return index === -1 ? items : items.filter((_, i) => i !== index);
  if (index === -1) return [...items, update.item];
  // Events can overtake each other across processes: never go back in time.
  if (items[index]!.updated_at > update.item.updated_at) return items;
  const next = items.slice();
  next[index] = update.item;
  return next;
}

/** The loaded list, with any item that `current` holds in a newer state kept in that state. */
export function mergeNewer(loaded: TKnowledgeItem[], current: TKnowledgeItem[]): TKnowledgeItem[] {
  const byUuid = new Map(current.map((item) => [item.uuid, item]));
  return loaded.map((item) => {
    const seen = byUuid.get(item.uuid);
    return seen && seen.updated_at > item.updated_at ? seen : item;
  });
}
