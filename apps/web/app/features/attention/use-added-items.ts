import type { TKbUpdateEvent, TKnowledgeItem, TKnowledgeItemDetail } from '@cairn/contracts/knowledge';
import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-error';
import { useRealtime } from '../../lib/use-realtime';
import { request } from '../chat/chat-api';

/** The newer of two states of one item (events can overtake each other across processes). */
export function newest(item: TKnowledgeItem, other: TKnowledgeItem | undefined): TKnowledgeItem {
  return other && other.updated_at > item.updated_at ? other : item;
}

/** Applies one `kb_updates` event to the added items: only theirs, never going back in time. */
export function applyToAdded(items: TKnowledgeItem[], update: TKbUpdateEvent): TKnowledgeItem[] {
  if (!items.some((item) => item.uuid === update.item.uuid)) return items;
  if (update.deleted) return items.filter((item) => item.uuid !== update.item.uuid);
  return items.map((item) => (item.uuid === update.item.uuid ? newest(item, update.item) : item));
}

const settled = (item: TKnowledgeItem) => item.status === 'ready' || item.status === 'failed';

/**
 * The knowledge items the owner added from this page, newest first, kept live through the
 * socket's `kb_updates` so their ingestion shows where they were written. Subscribed from the page's
 * first render, not from the answer: a short text is often indexed before the action's answer
 * reaches the page, so every item's latest state is remembered and an item added afterwards starts
 * from it. On each (re)connection the unsettled ones are read again, for what was missed meanwhile.
 */
export function useAddedItems(applicationUuid: string) {
  const [added, setAdded] = useState<TKnowledgeItem[]>([]);
  const seen = useRef(new Map<string, TKnowledgeItem>());
  // Another application's inbox (same route, new params) starts empty; `seen` needs no reset,
  // item uuids being unique across applications.
  const [shownFor, setShownFor] = useState(applicationUuid);
  if (shownFor !== applicationUuid) {
    setShownFor(applicationUuid);
    setAdded([]);
  }

  useRealtime('kb_updates', {
    onReady: () => {
      for (const item of added.filter((a) => !settled(a))) {
        request<TKnowledgeItemDetail>('GET', `/api/applications/${applicationUuid}/knowledge/${item.uuid}/`)
          .then((fresh) =>
            setAdded((items) => applyToAdded(items, { application_uuid: applicationUuid, item: fresh })),
          )
          .catch((error: unknown) => {
            // Deleted meanwhile; any other failure keeps what is shown until the next event.
            if (error instanceof ApiError && error.status === 404)
              setAdded((items) => items.filter((a) => a.uuid !== item.uuid));
          });
      }
    },
    onEvent: (update) => {
      if (update.application_uuid !== applicationUuid) return;
      if (update.deleted) seen.current.delete(update.item.uuid);
      else seen.current.set(update.item.uuid, newest(update.item, seen.current.get(update.item.uuid)));
      setAdded((items) => applyToAdded(items, update));
    },
  });

  const add = useCallback((item: TKnowledgeItem) => {
    setAdded((items) => [
      newest(item, seen.current.get(item.uuid)),
      ...items.filter((a) => a.uuid !== item.uuid),
    ]);
  }, []);

  return { added, add };
}
