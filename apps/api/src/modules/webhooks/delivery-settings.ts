const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How deliveries are paced. The defaults are the product's (issue 11); tests change them on the
 * running app through `app.webhooks.settings` (for instance in `startTestApp`'s `beforeListen`),
 * since workers read them at every attempt.
 */
export interface DeliverySettings {
  /** Delay before each retry: the first retry comes `retryDelaysMs[0]` after the first attempt. */
  retryDelaysMs: number[];
  /** Each delay is spread by up to ± this fraction, so retries of many deliveries do not line up. */
  jitter: number;
  /** An attempt gets no more than this for the whole exchange (connect, send, first bytes read). */
  timeoutMs: number;
  /** A webhook whose attempts have all failed for this long is disabled and its owner e-mailed. */
  disableAfterFailingMs: number;
  /** How long a rotated-out secret keeps signing. */
  rotationWindowMs: number;
  /** How often deliveries due without a job (it was lost) are queued again… */
  sweepIntervalMs: number;
  /** …once they have been due this long (their job may simply not have run yet). */
  sweepGraceMs: number;
  /** A `Retry-After` longer than this is cut to it. */
  maxRetryAfterMs: number;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  retryDelaysMs: [
    5 * SECOND,
    5 * MINUTE,
    30 * MINUTE,
    2 * HOUR,
    5 * HOUR,
    10 * HOUR,
    14 * HOUR,
    20 * HOUR,
    24 * HOUR,
  ],
  jitter: 0.1,
  timeoutMs: 15 * SECOND,
  disableAfterFailingMs: 5 * DAY,
  rotationWindowMs: DAY,
  sweepIntervalMs: 30 * SECOND,
  sweepGraceMs: 30 * SECOND,
  maxRetryAfterMs: DAY,
};

/**
 * Milliseconds until the next attempt after `attemptsMade` attempts, or null when the schedule is
 * spent. A `Retry-After` (429/503) is honoured: the next attempt never comes before it.
 */
export function nextDelayMs(
  settings: DeliverySettings,
  attemptsMade: number,
  retryAfterMs: number | null,
  random = Math.random,
): number | null {
  const base = settings.retryDelaysMs[attemptsMade - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 + settings.jitter * (2 * random() - 1)));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, settings.maxRetryAfterMs));
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
