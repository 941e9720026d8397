import type { TKbUpdateEvent, TKnowledgeItem } from '@cairn/contracts/knowledge';
import { useEffect, useRef, useState } from 'react';
import { useNavigation, useRevalidator } from 'react-router';
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
  /** When each item's last event arrived (performance.now()). */
  const eventAt = useRef(new Map<string, number>());
  /** When the list being loaded was asked for; null while no load is under way. */
  const loadingSince = useRef<number | null>(null);
  const loading = useNavigation().state !== 'idle' || revalidator.state === 'loading';
  if (loading && loadingSince.current === null) loadingSince.current = performance.now();

  // A new loader result (after an action, a navigation or a reconnect) is the new list; an item an
  // event already showed in a newer state keeps that state, and one an event showed after the list
  // was asked for stays (the list may predate it).
  useEffect(() => {
    const since = loadingSince.current ?? Number.POSITIVE_INFINITY;
    loadingSince.current = null;
    setItems((current) => mergeNewer(initial, current, (uuid) => (eventAt.current.get(uuid) ?? 0) > since));
  }, [initial]);

  useRealtime('kb_updates', {
    onReady: () => {
      setConnected(true);
      loadingSince.current ??= performance.now();
      void revalidate.current();
    },
    onClose: () => setConnected(false),
    onEvent: (update) => {
      if (update.application_uuid !== applicationUuid) return;
      eventAt.current.set(update.item.uuid, performance.now());
      setItems((current) => applyUpdate(current, update));
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

/**
 * The loaded list, with any item that `current` holds in a newer state kept in that state. An item
 * the list lacks is dropped (deleted meanwhile), unless `shownSince` says an event showed it after
 * the list was asked for: a reload that started before an item was added can end after the item's
 * events, and would hide it until the next reload.
 */
export function mergeNewer(
  loaded: TKnowledgeItem[],
  current: TKnowledgeItem[],
  shownSince: (uuid: string) => boolean = () => false,
): TKnowledgeItem[] {
  const byUuid = new Map(current.map((item) => [item.uuid, item]));
  const merged = loaded.map((item) => {
    const seen = byUuid.get(item.uuid);
    return seen && seen.updated_at > item.updated_at ? seen : item;
  });
  const listed = new Set(loaded.map((item) => item.uuid));
  return [...merged, ...current.filter((item) => !listed.has(item.uuid) && shownSince(item.uuid))];
}
