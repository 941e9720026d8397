import type { TOpenAIErrorBody } from '@cairn/contracts/public-api';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { UNSTORABLE_TEXT_DETAIL, unstorableText } from '../../lib/unstorable-text.ts';

/**
 * An error of the public API, in OpenAI's shape so that OpenAI clients raise their own error classes
 * (`AuthenticationError`, `NotFoundError`, `RateLimitError` …). `retry` becomes `x-should-retry`,
 * which the official clients obey: a request that cannot succeed is not sent again.
 */
export class OpenAIError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
    readonly retry = false,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'OpenAIError';
  }

  body(): TOpenAIErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export const invalidRequest = (message: string, param: string | null = null, code: string | null = null) =>
  new OpenAIError(400, message, 'invalid_request_error', code, param);

export const invalidApiKey = (message: string) =>
  new OpenAIError(401, message, 'invalid_request_error', 'invalid_api_key', null, false, {
    'www-authenticate': 'Bearer',
  });

export const modelNotFound = (model: string) =>
  new OpenAIError(
    404,
    `The model \`${model.slice(0, 100)}\` does not exist or you do not have access to it. Use this application's uuid (GET /api/v1/models).`,
    'invalid_request_error',
    'model_not_found',
    'model',
  );

/** `messages.3.content` (zod's path) as OpenAI clients name a parameter: `messages[3].content`. */
function paramOf(path: readonly (string | number)[]): string | null {
  if (!path.length) return null;
  return path.map((p, i) => (typeof p === 'number' || /^\d+$/.test(p) ? `[${p}]` : i ? `.${p}` : p)).join('');
}

/** Whatever a `/api/v1` route threw, as an OpenAI error; internals of a 5xx are never shown. */
export function toOpenAIError(error: FastifyError | Error, request: FastifyRequest): OpenAIError {
  if (error instanceof OpenAIError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const path = first?.instancePath.split('/').filter(Boolean) ?? [];
    const param = paramOf(path);
    const where = param ? `${param}: ` : '';
    return invalidRequest(`Invalid request body. ${where}${first?.message ?? 'Invalid value'}`, param);
  }
  if (error instanceof AppError) {
    if (error.statusCode === 404)
      return new OpenAIError(404, error.detail, 'invalid_request_error', 'not_found');
    if (error.statusCode < 500)
      return new OpenAIError(error.statusCode, error.detail, 'invalid_request_error');
  }
  const status = (error as FastifyError).statusCode ?? 500;
  const code = (error as FastifyError).code;
  if (status === 413 || code === 'FST_REQ_FILE_TOO_LARGE') {
    return new OpenAIError(
      413,
      'The request body is too large (at most 1 MB).',
      'invalid_request_error',
      'request_too_large',
    );
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return invalidRequest(
      'The request body must be JSON (Content-Type: application/json).',
      null,
      'unsupported_media_type',
    );
  }
  if (status >= 400 && status < 500) {
    const malformed = code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError;
    return invalidRequest(malformed ? 'The request body is not valid JSON.' : error.message);
  }
  const unstorable = unstorableText(error);
  if (unstorable) return invalidRequest(UNSTORABLE_TEXT_DETAIL[unstorable]);
  request.log.error({ err: error, reqId: request.id }, 'unhandled error');
  return new OpenAIError(
    500,
    'The server had an error while processing your request.',
    'server_error',
    null,
    null,
    true,
  );
}

export function sendOpenAIError(reply: FastifyReply, error: OpenAIError) {
  reply.headers({ ...error.headers, 'x-should-retry': String(error.retry) });
  return reply.status(error.status).send(error.body());
}
