import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, notFound } from '../lib/app-error.ts';
import { validationError } from '../lib/parse.ts';
import { UNSTORABLE_TEXT_DETAIL, unstorableText } from '../lib/unstorable-text.ts';

/** One error handler, one body: field problems → 400 `errors`, 5xx never shows internals. */
export default fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path names no object: that is a miss, like an unknown one.
      if (error.validationContext === 'params') return reply.status(404).send(notFound().toBody());
      const issues = error.validation.map((v) => ({
        path: v.instancePath.split('/').filter(Boolean),
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send(validationError(issues).toBody());
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.status(413).send({ detail: 'The request body is too large.', code: 'payload_too_large' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ detail: 'Unsupported content type.', code: 'unsupported_media_type' });
    }
    if (status >= 400 && status < 500) {
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'Malformed JSON in request body.'
          : error.message;
      return reply.status(status).send({ detail, code: status === 429 ? 'rate_limited' : 'invalid' });
    }
    const unstorable = unstorableText(error);
    if (unstorable) {
      // The contracts refuse or strip control characters (contracts/text.ts); this is the net for
      // a field that does not use them yet, and for JSON values. The failed statement wrote nothing.
      const route = `${request.method} ${request.routeOptions.url}`;
      request.log.warn(
        { err: error, reqId: request.id },
        `unstorable text (${unstorable}) reached the database: ${route}`,
      );
      return reply.status(400).send({ detail: UNSTORABLE_TEXT_DETAIL[unstorable], code: 'invalid' });
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal Server Error', code: 'internal' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ detail: `No route for ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' });
  });
});

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a URL or headers over 16 KB, a
 * malformed request line, a request that is too slow) still get the documented error body.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          { detail: 'The request line or headers are too large.', code: 'invalid' },
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', { detail: 'The request took too long to arrive.', code: 'invalid' }]
        : [400, 'Bad Request', { detail: 'Malformed HTTP request.', code: 'invalid' }];
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}

/**
 * Errors Fastify's router raises before any hook runs (a URL that does not decode, such as `/%` or
 * `/api/%zz`) get the documented error body instead of Fastify's own.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    reply.status(400).send({ detail: 'Malformed URL: it does not decode.', code: 'invalid' });
    return;
  }
  request.log.error({ err: error, reqId: request.id }, 'router error');
  reply.status(500).send({ detail: 'Internal Server Error', code: 'internal' });
}
