import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { takeOverReply } from '../../lib/take-over-reply.ts';

/**
 * Takes the reply over from Fastify and starts a server-sent event stream on it, keeping the
 * headers already set (rate limits, request id, conversation id). Called once the answer's first
 * step has decided the status, so an early failure can still be answered as a plain error.
 */
export function openEventStream(reply: FastifyReply): void {
  takeOverReply(reply, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
}

/**
 * Writes events on the stream and sends them now. A bare `write` corks the socket until the next
 * tick, and that tick waits for every microtask queued meanwhile: when the model's chunks arrive
 * together, the rest of the answer is streamed first, so the first text left with the last
 * (decision 099). Corked and uncorked here, the write goes out in this turn, as a socket frame does.
 */
export function sendEvents(res: ServerResponse, events: string): void {
  res.cork();
  res.write(events);
  res.uncork();
}
