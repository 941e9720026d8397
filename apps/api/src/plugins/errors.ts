import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, notFound } from '../lib/app-error.ts';
import { validationError } from '../lib/parse.ts';

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
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal Server Error', code: 'internal' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ detail: `No route for ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' });
  });
});
