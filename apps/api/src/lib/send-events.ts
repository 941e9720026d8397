import type { ServerResponse } from 'node:http';

/**
 * Writes events on the stream and sends them now. A bare `write` corks the socket until the next
 * tick, and that tick waits for every microtask queued meanwhile: when the model's chunks arrive
 * together, the rest of the answer is streamed first, so the first text left with the last
 * (decisions 098, 099). Corked and uncorked here, the write goes out in this turn, as a socket frame
 * does. Every event stream (the public API's, the widget's) writes its events through it.
 */
export function sendEvents(res: ServerResponse, events: string): void {
  res.cork();
  res.write(events);
  res.uncork();
}
