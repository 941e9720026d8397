import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_RATE_LIMITS } from '../modules/accounts/routes.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * Whose X-Forwarded-* count (TRUST_PROXY, decision 057), HSTS, and the error body of a URL that does
 * not decode. `plain` trusts no proxy (the default), `proxied` trusts 127.0.0.1 and `elsewhere` only
 * 10.0.0.0/8: the tests' loopback connections are a proxy for the second only.
 */
let plain: TestApp;
let proxied: TestApp;
let elsewhere: TestApp;
const forgotMax = DEFAULT_AUTH_RATE_LIMITS.forgot.perIp.max;
const noBuild = '/nonexistent/cairn-web-build';

beforeAll(async () => {
  const build = { rateLimits: DEFAULT_AUTH_RATE_LIMITS };
  // One after another: three apps starting at once can outlast a plugin timeout on a busy machine.
  plain = await startTestApp({ webBuildDir: noBuild }, build);
  proxied = await startTestApp({ trustProxy: ['127.0.0.1'], webBuildDir: noBuild }, build);
  elsewhere = await startTestApp({ trustProxy: ['10.0.0.0/8'], webBuildDir: noBuild }, build);
});
afterAll(() => Promise.all([plain?.close(), proxied?.close(), elsewhere?.close()]));

/** forgotMax + 1 requests, each claiming a different client address; the statuses. */
async function eachFromAnotherAddress(t: TestApp, prefix: string) {
  const statuses: number[] = [];
  for (let i = 0; i <= forgotMax; i++) {
    const res = await t.call('POST', '/api/forgot-password/', {
      json: { email: `${prefix}-${i}@example.com` },
      headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
    });
    statuses.push(res.status);
  }
  return statuses;
}

describe('X-Forwarded-For and per-address limits', () => {
  it('ignores it without TRUST_PROXY, from loopback too', async () => {
    expect((await eachFromAnotherAddress(plain, 'plain')).at(-1)).toBe(429);
  });

  it('ignores it from a peer that is not a listed proxy', async () => {
    expect((await eachFromAnotherAddress(elsewhere, 'elsewhere')).at(-1)).toBe(429);
  });

  it('counts the forwarded client when the peer is a listed proxy', async () => {
    expect(await eachFromAnotherAddress(proxied, 'proxied')).toEqual(Array(forgotMax + 1).fill(200));
  });
});

describe('X-Forwarded-Host and the same-origin check', () => {
  /** A cookie-authenticated write from evil.example, with forwarded headers naming evil.example. */
  const spoofed = async (t: TestApp) => {
    const { token } = await t.signUp();
    return t.call('PATCH', '/api/me/', {
      headers: {
        cookie: `auth_token=${token}`,
        origin: 'http://evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
      },
      json: {},
    });
  };

  it('refuses it without TRUST_PROXY', async () => {
    const res = await spoofed(plain);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Cross-site request refused.', code: 'forbidden' });
  });

  it('believes it from a listed proxy (the proxy vouches for the host)', async () => {
    expect((await spoofed(proxied)).status).toBe(200);
  });
});

describe('Strict-Transport-Security', () => {
  it('is absent over plain http, also when an untrusted peer claims https', async () => {
    for (const t of [plain, elsewhere]) {
      const res = await t.call('GET', '/api/health/', { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    expect((await proxied.call('GET', '/api/health/')).headers.get('strict-transport-security')).toBeNull();
  });

  it('is sent when a listed proxy says the client came over https, on pages too', async () => {
    for (const path of ['/api/health/', '/login']) {
      const res = await proxied.call('GET', path, { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
    }
  });
});

/** Sends a raw request path as is (fetch would normalise or refuse it). */
function rawGet(t: TestApp, path: string): Promise<{ status: number; type: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${t.url}${path}`, { method: 'GET', path }, (res) => {
      let text = '';
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          body: JSON.parse(text),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a URL that does not decode', () => {
  it.each(['/%', '/api/%zz', '/api/applications/%E0%A4%A/'])(
    '%s gets the documented error body',
    async (path) => {
      const res = await rawGet(plain, path);
      expect(res.status).toBe(400);
      expect(res.type).toContain('application/json');
      expect(res.body).toEqual({ detail: expect.any(String), code: 'invalid' });
    },
  );
});

describe('form posts to pages', () => {
  const post = (t: TestApp, headers: Record<string, string>) =>
    t.call('POST', '/login', {
      raw: 'email=a%40example.com&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  it('refuses a cross-site post, with or without Origin', async () => {
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      const res = await post(plain, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toEqual({ detail: 'Cross-site form post refused.', code: 'forbidden' });
    }
  });

  it('lets our own pages post (here: to a server without a web build, so 503)', async () => {
    const ownPages: Record<string, string>[] = [
      { origin: plain.url },
      { 'sec-fetch-site': 'same-origin' },
      {},
    ];
    for (const headers of ownPages) {
      expect((await post(plain, headers)).status, JSON.stringify(headers)).toBe(503);
    }
  });
});
