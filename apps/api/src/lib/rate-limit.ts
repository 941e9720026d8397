import type { Database } from '@cairn/db/client';
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

/**
 * Counts one hit in a fixed window kept in the database, so that every API process shares it.
 */
export async function countHit(database: Database, key: string, windowSeconds: number): Promise<Hit> {
  const nowSeconds = Date.now() / 1000;
  const windowStart = Math.floor(nowSeconds / windowSeconds) * windowSeconds;
  const { rows } = await database.query<{ count: number }>(
    `INSERT INTO rate_limit_hits (key, window_start, count) VALUES ($1, to_timestamp($2), 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_hits.count + 1
     RETURNING count`,
    [key, windowStart],
  );
  if (Math.random() < 0.01) {
    await database.query(`DELETE FROM rate_limit_hits WHERE window_start < now() - interval '1 day'`);
  }
  return {
    count: Number(rows[0]?.count ?? 0),
    resetSeconds: Math.max(1, Math.ceil(windowStart + windowSeconds - nowSeconds)),
  };
}

/** Counts a hit on every limit; throws a 429 with Retry-After when any of them is exceeded. */
export async function enforceLimits(database: Database, limits: Limit[]): Promise<void> {
  let retryAfter = 0;
  for (const limit of limits) {
    const hit = await countHit(database, limit.key, limit.windowSeconds);
    if (hit.count > limit.max) retryAfter = Math.max(retryAfter, hit.resetSeconds);
  }
  if (retryAfter > 0) {
    throw new AppError('rate_limited', `Too many attempts. Try again in ${retryAfter} seconds.`, undefined, {
      'retry-after': String(retryAfter),
    });
  }
}
