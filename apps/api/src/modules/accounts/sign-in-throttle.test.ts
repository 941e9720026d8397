import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tryAgainIn } from '../../lib/rate-limit.ts';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';
import { DEFAULT_AUTH_RATE_LIMITS } from './routes.ts';
import { delayAfter, SIGN_IN_DELAYS } from './sign-in-throttle.ts';

/**
 * Sign-in cannot be turned against its owner (issue 26 #3): failures slow down per (account, client
 * address) with growing delays, never lock the account. The app trusts 127.0.0.1 as its proxy, so
 * each call names its client address in X-Forwarded-For, as a reverse proxy would.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trustProxy: ['127.0.0.1'] }, { rateLimits: DEFAULT_AUTH_RATE_LIMITS });
});
afterAll(() => t.close());

const attacker = '203.0.113.66';
const owner = '198.51.100.5';
const login = (email: string, password: string, ip: string) =>
  t.call('POST', '/api/login/', { json: { email, password }, headers: { 'x-forwarded-for': ip } });
/** A pair that has failed `failures` times, whose wait ends in `seconds` (state set directly, no clock). */
const failedBefore = (email: string, ip: string, failures: number, seconds: number) =>
  t.database.query(
    `INSERT INTO sign_in_failures (account, address, failures, retry_at, last_failed_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4), now())`,
    [email, ip, failures, seconds],
  );

describe('failed sign-ins slow down per (account, address)', () => {
  it('grows the delay: free attempts, then 1 s, 2 s … up to 15 minutes', () => {
    const delays = Array.from({ length: 20 }, (_, i) => delayAfter(i + 1));
    expect(delays.slice(0, SIGN_IN_DELAYS.free)).toEqual(Array(SIGN_IN_DELAYS.free).fill(0));
    expect(delays.slice(SIGN_IN_DELAYS.free, SIGN_IN_DELAYS.free + 4)).toEqual([1, 2, 4, 8]);
    expect(Math.max(...delays)).toBe(15 * 60);
    expect([1, 2, 59, 60, 61, 900].map(tryAgainIn)).toEqual([
      'Try again in 1 second.',
      'Try again in 2 seconds.',
      'Try again in 59 seconds.',
      'Try again in 1 minute.',
      'Try again in 2 minutes.',
      'Try again in 15 minutes.',
    ]);
  });

  it('makes the guesser wait, while the owner signs in from another address', async () => {
    const { user } = await t.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await login(user.email, `wrong-${i}-password`, attacker)).status);
    // The free failures and the first delayed one are checked; then the pair waits 1, 2, 4 … s (a
    // slow machine may let one more through before the waits outgrow a request).
    expect(statuses.slice(0, SIGN_IN_DELAYS.free + 1)).toEqual(Array(SIGN_IN_DELAYS.free + 1).fill(400));
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(SIGN_IN_DELAYS.free + 3);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    const waiting = await login(user.email, TEST_PASSWORD, attacker);
    expect(waiting.status).toBe(429);
    expect(waiting.body).toEqual({
      detail: expect.stringMatching(
        /^Too many failed attempts\. Try again in \d+ (second|seconds|minute|minutes)\.$/,
      ),
      code: 'rate_limited',
    });
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Today's lockout (ten wrong passwords in ten minutes) does not reach the owner elsewhere.
    const ownerLogin = await login(user.email, TEST_PASSWORD, owner);
    expect(ownerLogin.status).toBe(200);
    // Nor does it spend the owner's own allowance for typos.
    expect((await login(user.email, 'owner-typo-123', owner)).status).toBe(400);
  });

  it('lets one attempt through when the wait is over, and the next wait is longer', async () => {
    const { user } = await t.signUp();
    await failedBefore(user.email, attacker, 8, 60);
    const waiting = await login(user.email, TEST_PASSWORD, attacker);
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(50);

    await t.database.query(`UPDATE sign_in_failures SET retry_at = now() WHERE account = $1`, [user.email]);
    expect((await login(user.email, 'wrong-again-1', attacker)).status).toBe(400);
    const next = await login(user.email, 'wrong-again-2', attacker);
    expect(next.status).toBe(429);
    // Nine failures: 2^(9 - free - 1) seconds.
    expect(Number(next.headers.get('retry-after'))).toBe(delayAfter(9));
  });

  it('lets only one of many parallel attempts through once the wait is over', async () => {
    const { user } = await t.signUp();
    await failedBefore(user.email, attacker, 8, 0);
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => login(user.email, `parallel-${i}-guess`, attacker)),
    );
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses).toEqual([400, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('forgets the failures of a pair once it signs in, and says the same for unknown accounts', async () => {
    const { user } = await t.signUp();
    const ip = '192.0.2.44';
    for (let i = 0; i < SIGN_IN_DELAYS.free; i++) await login(user.email, `wrong-${i}-password`, ip);
    expect((await login(user.email, TEST_PASSWORD, ip)).status).toBe(200);
    const { rows } = await t.database.query(`SELECT 1 FROM sign_in_failures WHERE account = $1`, [
      user.email,
    ]);
    expect(rows).toEqual([]);

    const ghost = 'nobody-here@example.com';
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(ghost, `wrong-${i}-password`, ip)).status);
    expect(statuses.at(-1)).toBe(429);
  });

  it('still limits one address spraying many accounts', async () => {
    const sprayer = '203.0.113.99';
    const { max, windowSeconds } = DEFAULT_AUTH_RATE_LIMITS.login.perIp;
    // The limit counts in fixed windows: do not straddle the end of one.
    const left = windowSeconds - ((Date.now() / 1000) % windowSeconds);
    if (left < 20) await new Promise((r) => setTimeout(r, (left + 0.5) * 1000));
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++)
      statuses.push((await login(`spray-${i}@example.com`, 'wrong-password-1', sprayer)).status);
    expect(statuses.slice(0, max).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another address is unaffected.
    expect((await login('spray-0@example.com', 'wrong-password-1', '203.0.113.100')).status).toBe(400);
  });
});
