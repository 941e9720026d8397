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
