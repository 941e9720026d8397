import type { FastifyReply } from 'fastify';

/**
 * Takes the reply over from Fastify and starts a server-sent event stream on it, keeping the
 * headers already set (rate limits, request id, conversation id). Called once the answer's first
 * step has decided the status, so an early failure can still be answered as a plain error.
 */
export function openEventStream(reply: FastifyReply): void {
  const res = reply.raw;
  reply.hijack();
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
}
