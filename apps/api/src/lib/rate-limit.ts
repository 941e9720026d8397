import type { Database } from '@cairn/db/client';
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { AppError } from './app-error.ts';

export interface Limit {
  /** What is counted, e.g. `login:ip:127.0.0.1`. */
  key: string;
  max: number;
  windowSeconds: number;
}

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number;
}

/** The fixed window a hit made now falls in: its start (epoch seconds) and the seconds left in it. */
export function fixedWindow(windowSeconds: number): { start: number; resetSeconds: number } {
  const nowSeconds = Date.now() / 1000;
  const start = Math.floor(nowSeconds / windowSeconds) * windowSeconds;
  return { start, resetSeconds: Math.max(1, Math.ceil(start + windowSeconds - nowSeconds)) };
}

const ADD_HIT =
  'ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_hits.count + 1 RETURNING count';

/**
 * Counts one hit on each key `keys` (a query of one column) yields, RETURNING count: for a caller
 * that folds the count into a statement of its own as a CTE, sparing a round trip. `windowStart`
 * (epoch seconds) may be a placeholder, for a statement built once.
 */
export const countHitsSql = (keys: SQL, windowStart: number | Placeholder) =>
  sql`INSERT INTO rate_limit_hits (key, window_start, count)
     SELECT hit_key, to_timestamp(${windowStart}), 1 FROM (${keys}) AS hits (hit_key) ${sql.raw(ADD_HIT)}`;

/** Now and then, drops the counters of windows long over (every counting caller calls it). */
export async function pruneHitsSometimes(database: Database): Promise<void> {
  if (Math.random() < 0.01) {
    await database.query(`DELETE FROM rate_limit_hits WHERE window_start < now() - interval '1 day'`);
  }
}

/**
 * Counts one hit in a fixed window kept in the database, so that every API process shares it.
 */
export async function countHit(database: Database, key: string, windowSeconds: number): Promise<Hit> {
  const window = fixedWindow(windowSeconds);
  const { rows } = await database.query<{ count: number }>(
    `INSERT INTO rate_limit_hits (key, window_start, count) VALUES ($1, to_timestamp($2), 1) ${ADD_HIT}`,
    [key, window.start],
  );
  await pruneHitsSometimes(database);
  return { count: Number(rows[0]?.count ?? 0), resetSeconds: window.resetSeconds };
}

/** "Try again in 1 second." / "… in 40 seconds." / "… in 10 minutes." (rounded up). */
export function tryAgainIn(seconds: number): string {
  if (seconds < 60) return `Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/** Counts a hit on every limit; throws a 429 with Retry-After when any of them is exceeded. */
export async function enforceLimits(database: Database, limits: Limit[]): Promise<void> {
  let retryAfter = 0;
  for (const limit of limits) {
    const hit = await countHit(database, limit.key, limit.windowSeconds);
    if (hit.count > limit.max) retryAfter = Math.max(retryAfter, hit.resetSeconds);
  }
  if (retryAfter > 0) {
    throw new AppError('rate_limited', `Too many attempts. ${tryAgainIn(retryAfter)}`, undefined, {
      'retry-after': String(retryAfter),
    });
  }
}
