import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Takes the reply over from Fastify to stream it, keeping the headers already set (security
 * headers, rate limits, request id) and sending the status with `headers`.
 */
export function takeOverReply(reply: FastifyReply, headers: OutgoingHttpHeaders): ServerResponse {
  const res = reply.raw;
  reply.hijack();
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  res.writeHead(200, headers);
  return res;
}
