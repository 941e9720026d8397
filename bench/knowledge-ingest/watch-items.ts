/**
 * Follows the owner's `kb_updates` events on `/api/ws`, as the knowledge-base screen does, to see
 * when items are ready. Polling the item list instead costs the server more than ingestion itself
 * with thousands of items (a list of 5,000 took 1–2 s to serve), which skewed the measurement.
 */
import { once } from 'node:events';
import WebSocket from 'ws';

type ItemState = { status: string; updated_at: string };

export async function watchItems(base: string, token: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`, {
    headers: { authorization: `Token ${token}` },
  });
  const latest = new Map<string, ItemState>();
  socket.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as {
      event?: string;
      data?: { item?: ItemState & { uuid: string } };
    };
    const item = message.data?.item;
    if (message.event !== 'kb_updates' || !item) return;
    const seen = latest.get(item.uuid);
    // Events can overtake each other: never go back in time (as the web client does).
    if (!seen || seen.updated_at <= item.updated_at) latest.set(item.uuid, item);
  });
  await once(socket, 'message');
  return {
    /** Resolves once every one of `uuids` is ready or failed; reports progress every few seconds. */
    async settled(uuids: string[], onProgress: (settled: number) => void) {
      let reported = Date.now();
      for (;;) {
        const settled = uuids.filter((uuid) =>
          /^(ready|failed)$/.test(latest.get(uuid)?.status ?? ''),
        ).length;
        if (settled === uuids.length) return;
        if (Date.now() - reported > 5000) {
          onProgress(settled);
          reported = Date.now();
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => socket.close(),
  };
}
