/**
 * The request helper's error (specification §8): every failure becomes an ApiError carrying a message,
 * the HTTP status, the server's `errors` body and the original error. Shared by server and client code.
 */
export type ServerErrors = string[] | Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number | undefined;
  readonly errors: ServerErrors | undefined;
  readonly code: string | undefined;
  readonly original: unknown;

  constructor(
    message: string,
    opts: { status?: number; errors?: ServerErrors; code?: string; original?: unknown } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = opts.status;
    this.errors = opts.errors;
    this.code = opts.code;
    this.original = opts.original;
  }
}

/** Statuses worth one more try of a request without a body (ofetch's defaults, spelled out as the specification's rules). */
export const RETRY_STATUS_CODES = [408, 409, 425, 429, 500, 502, 503, 504];

export const MESSAGE_REQUEST_FAILED = 'Request failed';
export const MESSAGE_UNKNOWN_ERROR = 'Unknown error';
export const MESSAGE_TOKEN_MISSING = 'Authentication token missing';

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null;
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function readErrors(value: unknown): ServerErrors | undefined {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (!isObject(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) out[field] = messages.map(String);
    else if (typeof messages === 'string') out[field] = [messages];
  }
  return out;
}

/**
 * Message precedence (§8): the server's `errors` array joined with ', '; then its `detail`; then the
 * error's data message or detail; then the error's own (generic) message; then 'Request failed'.
 * Anything that is not an Error-like object gives 'Unknown error'.
 */
export function normalizeError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (!isObject(error)) return new ApiError(MESSAGE_UNKNOWN_ERROR, { original: error });

  // ofetch's FetchError keeps the parsed body in `data` and the status in `status`/`statusCode`.
  const body = isObject(error.data) ? error.data : undefined;
  const response = isObject(error.response) ? error.response : undefined;
  const status =
    typeof error.status === 'number'
      ? error.status
      : typeof error.statusCode === 'number'
        ? error.statusCode
        : typeof response?.status === 'number'
          ? response.status
          : undefined;
  const errors = readErrors(body?.errors);
  const code = typeof body?.code === 'string' ? body.code : undefined;
  const nested = isObject(body?.data) ? body.data : undefined;

  const candidates: unknown[] = [
    Array.isArray(errors) && errors.length > 0 ? errors.join(', ') : undefined,
    body?.detail,
    body?.message,
    nested?.message,
    nested?.detail,
    error instanceof Error || 'message' in error ? error.message : undefined,
  ];
  const message = candidates.find(nonEmptyString) ?? MESSAGE_REQUEST_FAILED;
  return new ApiError(message, { status, errors, code, original: error });
}

/** Field errors of a 400 body, each list joined with ', ' (specification §5). */
export function fieldErrorsOf(error: ApiError): Record<string, string> {
  const out: Record<string, string> = {};
  if (!error.errors || Array.isArray(error.errors)) return out;
  for (const [field, messages] of Object.entries(error.errors)) {
    if (messages.length > 0) out[field] = messages.join(', ');
  }
  return out;
}

/** What an action hands back to its form: errors per field and/or one form-level message. */
export interface FormErrors {
  fieldErrors: Record<string, string>;
  formError: string | null;
}

/**
 * Splits a failure for a form: messages for fields the form shows go on those fields; everything else
 * (a plain error, or errors on fields the form does not have) becomes the form-level message.
 */
export function formErrorsOf(error: unknown, fields: readonly string[]): FormErrors {
  const normalized = normalizeError(error);
  const all = fieldErrorsOf(normalized);
  const fieldErrors: Record<string, string> = {};
  const rest: string[] = [];
  for (const [field, message] of Object.entries(all)) {
    if (fields.includes(field)) fieldErrors[field] = message;
    else rest.push(message);
  }
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  const formError = rest.length > 0 ? rest.join(', ') : hasFieldErrors ? null : normalized.message;
  return { fieldErrors, formError };
}
