// From the SDK's small error package, not `ai` itself: the SDK loads on first use (memory at rest).
import { AISDKError, APICallError } from '@ai-sdk/provider';
import { AppError } from '../lib/app-error.ts';
import { ProviderUnreachableError, ProviderUrlError } from './provider-url.ts';

export type ModelErrorKind =
  | 'auth'
  | 'rate_limited'
  | 'timeout'
  | 'model_not_found'
  | 'unreachable'
  | 'refused_url'
  | 'provider_error'
  | 'not_configured';

/**
 * A model call that failed, with a message a person can act on. The chat shows `message` as the
 * conversation's error and records `kind` in the event; provider internals stay in `cause`.
 * It is an AppError (`unavailable`, 503) so that wherever it surfaces — an HTTP answer, a failed
 * knowledge item — its message is shown as is rather than hidden as an internal error. (The SDK
 * already retried what was retryable before it is thrown.)
 */
export class ModelProviderError extends AppError {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number | undefined,
    options?: { cause?: unknown },
  ) {
    super('unavailable', message);
    this.name = 'ModelProviderError';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export interface ErrorContext {
  provider: string;
  model?: string | undefined;
  baseUrl: string;
  timeoutMs?: number | undefined;
}

/** The SDK's RetryError (retries used up), recognised by its name: its class lives in `ai`. */
function isRetryError(error: unknown): error is AISDKError & { lastError: unknown } {
  return AISDKError.isInstance(error) && error.name === 'AI_RetryError' && 'lastError' in error;
}

/** Maps any failure of a provider call (SDK error, network error, our timeout) to a ModelProviderError. */
export function toModelProviderError(error: unknown, ctx: ErrorContext): ModelProviderError {
  if (error instanceof ModelProviderError) return error;
  if (isRetryError(error)) return toModelProviderError(error.lastError, ctx);
  const where = `the model provider "${ctx.provider}"`;
  if (error instanceof ProviderUrlError) return new ModelProviderError('refused_url', error.message);
  if (error instanceof ProviderUnreachableError) {
    // The same words for a closed port, a filtered one, an unknown host and a refused address.
    return new ModelProviderError(
      'unreachable',
      `Could not reach ${where} at ${ctx.baseUrl}. ${error.hint}`,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (isTimeout(error)) {
    const ms = ctx.timeoutMs;
    const seconds = !ms ? '' : ms < 1000 ? ` within ${ms} ms` : ` within ${Math.round(ms / 1000)} seconds`;
    return new ModelProviderError('timeout', `${capitalize(where)} did not answer${seconds}.`, undefined, {
      cause: error,
    });
  }
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    return fromStatus(error.statusCode, ctx, where, error);
  }
  const code = networkCode(error);
  if (code) {
    const reason =
      code === 'ECONNREFUSED'
        ? 'connection refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'host not found'
          : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
            ? 'connection lost'
            : code.toLowerCase();
    return new ModelProviderError(
      'unreachable',
      `Cannot reach ${where} at ${ctx.baseUrl} (${reason}).`,
      undefined,
      {
        cause: error,
      },
    );
  }
  return new ModelProviderError(
    'provider_error',
    `${capitalize(where)} failed: ${shortMessage(error)}`,
    undefined,
    {
      cause: error,
    },
  );
}

export function fromStatus(status: number, ctx: ErrorContext, where: string, cause?: unknown) {
  const options = { cause };
  if (status === 401 || status === 403) {
    return new ModelProviderError(
      'auth',
      `${capitalize(where)} rejected the API key (${status}). Check the key in Settings → Models.`,
      status,
      options,
    );
  }
  if (status === 429) {
    return new ModelProviderError(
      'rate_limited',
      `${capitalize(where)} is rate limiting requests (429). Try again in a moment.`,
      status,
      options,
    );
  }
  if (status === 404) {
    const what = ctx.model
      ? `The model "${ctx.model}" was not found at ${where}`
      : `${capitalize(where)} answered 404 Not Found`;
    return new ModelProviderError('model_not_found', `${what} (404).`, status, options);
  }
  if (status === 408 || status === 504) {
    return new ModelProviderError('timeout', `${capitalize(where)} timed out (${status}).`, status, options);
  }
  if (status >= 300 && status < 400) {
    return new ModelProviderError(
      'provider_error',
      `${capitalize(where)} answered with a redirect (${status}); check the base URL.`,
      status,
      options,
    );
  }
  return new ModelProviderError(
    'provider_error',
    `${capitalize(where)} answered with an error (${status}).`,
    status,
    options,
  );
}

function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError') return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.name === 'TimeoutError';
}

/** Node's fetch hides the socket error code in `cause` (sometimes nested). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
