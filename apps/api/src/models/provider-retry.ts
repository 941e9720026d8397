import { APICallError } from '@ai-sdk/provider';
import type { RetryFunction } from '@ai-sdk/provider-utils';
import { loadProviderUtils } from './provider-sdk.ts';

/** A wait the provider asks for is honoured up to this long; a longer one falls back to the backoff. */
const LONGEST_ASKED_WAIT_MS = 60_000;

/**
 * How long to wait before trying again: what a 429 or 503 asks for (`retry-after-ms`, as OpenAI
 * sends, or `retry-after` in seconds or as a date) when it is reasonable, else the exponential
 * backoff. The rule the AI SDK's `streamText` applies (decision 114).
 */
export function retryDelayMs(error: unknown, backoffMs: number): number {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (!headers) return backoffMs;
  let ms: number | undefined;
  const afterMs = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (!Number.isNaN(afterMs)) ms = afterMs;
  const after = headers['retry-after'];
  if (after && ms === undefined) {
    const seconds = Number.parseFloat(after);
    ms = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < LONGEST_ASKED_WAIT_MS || ms < backoffMs)
    ? ms
    : backoffMs;
}

/**
 * Retries a provider call that failed with a retryable status (408, 409, 429, 5xx) up to
 * `maxRetries` times, 2 s then 4 s … apart unless the provider asks otherwise; an abort is never
 * retried. When the retries run out, the last failure is thrown as it came (its status says why).
 */
export async function providerRetry(maxRetries: number, abortSignal: AbortSignal): Promise<RetryFunction> {
  const { retryWithExponentialBackoff } = await loadProviderUtils();
  return retryWithExponentialBackoff({
    maxRetries,
    abortSignal,
    shouldRetry: (error) => APICallError.isInstance(error) && error.isRetryable,
    getDelayInMs: ({ error, exponentialBackoffDelay }) => retryDelayMs(error, exponentialBackoffDelay),
    createRetryError: ({ errors }) => errors.at(-1),
  });
}
