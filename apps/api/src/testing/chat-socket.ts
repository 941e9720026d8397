import type { TMessage, TMessageEvent } from '@cairn/contracts/chat';
import WebSocket from 'ws';

/** A `/api/ws` client for chat tests: collects `message` events and rebuilds answers from deltas. */
export async function openChatSocket(baseUrl: string, token: string) {
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/ws`, {
    headers: { authorization: `Token ${token}` },
  });
  const events: TMessageEvent[] = [];
  socket.on('message', (raw) => {
    const parsed = JSON.parse(raw.toString()) as { event: string; data: TMessageEvent };
    if (parsed.event === 'message') events.push(parsed.data);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('message', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    events,
    /** Waits for the answer's final `updated` event (complete, stopped or failed). */
    async finalOf(messageUuid: string, timeoutMs = 10_000): Promise<TMessage> {
      const started = Date.now();
      while (Date.now() - started < timeoutMs) {
        const done = events.find(
          (e) =>
            e.kind === 'updated' &&
            e.message.uuid === messageUuid &&
            ['complete', 'stopped', 'failed'].includes(e.message.status),
        );
        if (done && done.kind === 'updated') return done.message;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`no final event for ${messageUuid}`);
    },
    /** The text a client holds after applying the deltas of one run by their offsets. */
    streamedText(messageUuid: string, run = 0): string {
      let text = '';
      for (const e of events) {
        if (
          e.kind === 'delta' &&
          e.message_uuid === messageUuid &&
          e.run === run &&
          e.offset === text.length
        ) {
          text += e.delta;
        }
      }
      return text;
    },
    close: () => socket.close(),
  };
}
