import type { TLoginRequest, TLoginResponse } from '@cairn/contracts/accounts';
import type { Database } from '@cairn/db/client';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { tryAgainIn } from '../../lib/rate-limit.ts';
import type { SessionClient } from './account-sessions.ts';
import { loginUser } from './sessions.ts';

/**
 * Failed sign-ins slow down per (account, client address) instead of locking the account (decision
 * 057): a guesser waits longer and longer, while the owner signing in from anywhere else is not held
 * up at all. Spraying many accounts from one address is the per-address limit's job (routes.ts).
 */
export const SIGN_IN_DELAYS = {
  /** Failures of one pair that cost nothing (typos). */
  free: 4,
  /** The longest wait between two attempts of one pair. */
  maxSeconds: 15 * 60,
  /** While an attempt is being checked, a second one of the same pair waits at least this long. */
  inFlightSeconds: 10,
};
/** A pair whose last failure is older than this starts over. */
const FORGET = `interval '1 day'`;

/** Seconds the next attempt waits after `failures` failures: 0 … 0, then 1, 2, 4 … up to the cap. */
export const delayAfter = (failures: number) =>
  failures <= SIGN_IN_DELAYS.free
    ? 0
    : Math.min(SIGN_IN_DELAYS.maxSeconds, 2 ** (failures - SIGN_IN_DELAYS.free - 1));

/** Signs in through `loginUser`, refusing while this (account, address) must wait. */
export async function signInThrottled(
  app: Ctx,
  input: TLoginRequest,
  address: string,
  client: SessionClient,
): Promise<TLoginResponse> {
  const pair = [input.email, address] as const;
  const wait = await claimAttempt(app.database, ...pair);
  if (wait > 0) {
    throw new AppError('rate_limited', `Too many failed attempts. ${tryAgainIn(wait)}`, undefined, {
      'retry-after': String(wait),
    });
  }
  try {
    const signedIn = await loginUser(app, input, client);
    await forget(app.database, ...pair);
    return signedIn;
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_credentials')
      await recordFailure(app.database, ...pair);
    // The right password for an account still to be verified is no failure.
    else if (error instanceof AppError && error.code === 'email_not_verified')
      await forget(app.database, ...pair);
    throw error;
  }
}

/**
 * Seconds this attempt must wait, or 0 to go ahead. Going ahead holds the pair's door (retry_at) for
 * the attempt's own delay, atomically, so parallel attempts of one pair cannot all pass at once.
 */
async function claimAttempt(database: Database, account: string, address: string): Promise<number> {
  const { rows } = await database.query<{ claimed: boolean; wait: number | null }>(
    `WITH pair AS (
       SELECT retry_at FROM sign_in_failures
        WHERE account = $1 AND address = $2 AND last_failed_at > now() - ${FORGET}
     ), claimed AS (
       UPDATE sign_in_failures SET retry_at = now() + make_interval(secs => greatest($3::int,
         CASE WHEN failures > $4 THEN least($5::int, power(2, failures - $4 - 1)) ELSE 0 END))
        WHERE account = $1 AND address = $2 AND retry_at <= now()
        RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM claimed) AS claimed,
            (SELECT ceil(extract(epoch FROM retry_at - now()))::int FROM pair) AS wait`,
    [account, address, SIGN_IN_DELAYS.inFlightSeconds, SIGN_IN_DELAYS.free, SIGN_IN_DELAYS.maxSeconds],
  );
  const row = rows[0];
  if (!row || row.claimed || row.wait === null) return 0;
  // Not claimed: the pair is waiting, or a parallel attempt holds it this instant.
  return Math.max(row.wait, 1);
}

async function recordFailure(database: Database, account: string, address: string): Promise<void> {
  const { rows } = await database.query<{ failures: number }>(
    `INSERT INTO sign_in_failures (account, address, failures, retry_at, last_failed_at)
     VALUES ($1, $2, 1, now(), now())
     ON CONFLICT (account, address) DO UPDATE SET
       failures = CASE WHEN sign_in_failures.last_failed_at > now() - ${FORGET}
                       THEN sign_in_failures.failures + 1 ELSE 1 END,
       last_failed_at = now()
     RETURNING failures`,
    [account, address],
  );
  const failures = rows[0]?.failures ?? 1;
  await database.query(
    `UPDATE sign_in_failures SET retry_at = now() + make_interval(secs => $3) WHERE account = $1 AND address = $2`,
    [account, address, delayAfter(failures)],
  );
  if (Math.random() < 0.01) {
    await database.query(`DELETE FROM sign_in_failures WHERE last_failed_at < now() - ${FORGET}`);
  }
}

async function forget(database: Database, account: string, address: string): Promise<void> {
  await database.query('DELETE FROM sign_in_failures WHERE account = $1 AND address = $2', [
    account,
    address,
  ]);
}
