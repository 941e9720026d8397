import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestResponse } from '../../testing/test-app.ts';
import { DEFAULT_AUTH_RATE_LIMITS } from './routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { rateLimits: DEFAULT_AUTH_RATE_LIMITS });
});
afterAll(() => t.close());

async function hammer(path: string, bodies: unknown[]) {
  const statuses: number[] = [];
  let last: TestResponse | undefined;
  for (const json of bodies) {
    last = await t.call('POST', path, { json });
    statuses.push(last.status);
  }
  return { statuses, last: last! };
}

describe('rate limits on the account endpoints (production defaults)', () => {
  it('limits login attempts per IP across accounts', async () => {
    const max = DEFAULT_AUTH_RATE_LIMITS.login.perIp.max;
    const bodies = Array.from({ length: max + 1 }, (_, i) => ({
      email: `spray${i}@example.com`,
      password: 'wrong-password-1',
    }));
    const { last, statuses } = await hammer('/api/login/', bodies);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(last.status).toBe(429);
  });

  it('limits registration, forgot-password and resend per account', async () => {
    const forgot = await hammer(
      '/api/forgot-password/',
      Array(DEFAULT_AUTH_RATE_LIMITS.forgot.perAccount!.max + 1).fill({ email: 'f@example.com' }),
    );
    expect(forgot.last.status).toBe(429);
    const resend = await hammer(
      '/api/verify-email/resend/',
      Array(DEFAULT_AUTH_RATE_LIMITS.resend.perAccount!.max + 1).fill({ email: 'r@example.com' }),
    );
    expect(resend.last.status).toBe(429);
    const register = await hammer(
      '/api/register/',
      Array(DEFAULT_AUTH_RATE_LIMITS.register.perAccount!.max + 1).fill({
        email: 'g@example.com',
        password: 'x',
      }),
    );
    expect(register.last.status).toBe(429);
    expect(register.last.headers.get('retry-after')).toBeTruthy();
  });

  it('ignores X-Forwarded-For without TRUST_PROXY, from loopback too: one budget per address', async () => {
    const max = DEFAULT_AUTH_RATE_LIMITS.forgot.perIp.max;
    const asClient = (ip: string, i: number) =>
      t.call('POST', '/api/forgot-password/', {
        json: { email: `fwd${ip}-${i}@example.com` },
        headers: { 'x-forwarded-for': ip },
      });
    // Each request claims a new address; trusted, every one would pass. Ignored, 127.0.0.1 runs out.
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++) statuses.push((await asClient(`203.0.113.${i + 1}`, i)).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
