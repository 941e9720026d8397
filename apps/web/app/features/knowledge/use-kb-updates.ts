import type { TKbUpdateEvent, TKnowledgeItem } from '@cairn/contracts/knowledge';
import { useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import { useRealtime } from '../../lib/use-realtime';

/**
 * The application's items, kept live: starts from the loader's list and applies every
 * `kb_updates` event from `/api/ws`. Each time the socket is (re)connected the
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

  useRealtime('kb_updates', {
    onReady: () => {
      setConnected(true);
      void revalidate.current();
    },
    onClose: () => setConnected(false),
    onEvent: (update) => {
      if (update.application_uuid === applicationUuid) setItems((current) => applyUpdate(current, update));
    },
  });

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
