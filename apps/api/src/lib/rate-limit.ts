import type { Database } from '@cairn/db/client';
import { AppError } from './app-error.ts';

export interface Limit {
  /** What is counted, e.g. `login:ip:127.0.0.1`. */
  key: string;
  max: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters kept in the database, so that every API process shares them.
 * Throws a 429 with Retry-After when any of the limits is exceeded.
 */
export async function enforceLimits(database: Database, limits: Limit[]): Promise<void> {
  const nowSeconds = Date.now() / 1000;
  let retryAfter = 0;
  for (const limit of limits) {
    const windowStart = Math.floor(nowSeconds / limit.windowSeconds) * limit.windowSeconds;
    const { rows } = await database.query<{ count: number }>(
      `INSERT INTO rate_limit_hits (key, window_start, count) VALUES ($1, to_timestamp($2), 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_hits.count + 1
       RETURNING count`,
      [limit.key, windowStart],
    );
    if ((rows[0]?.count ?? 0) > limit.max) {
      retryAfter = Math.max(retryAfter, Math.ceil(windowStart + limit.windowSeconds - nowSeconds));
    }
  }
  if (Math.random() < 0.01) {
    await database.query(`DELETE FROM rate_limit_hits WHERE window_start < now() - interval '1 day'`);
  }
  if (retryAfter > 0) {
    throw new AppError('rate_limited', `Too many attempts. Try again in ${retryAfter} seconds.`, undefined, {
      'retry-after': String(retryAfter),
    });
  }
}
