import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_AUTH_RATE_LIMITS } from '../modules/accounts/routes.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { inProcessCall } from './web.ts';

/**
 * Counts the statements run from now on whose text holds a fragment. On PostgreSQL they are the pool's queries;
 * on PGlite each text is prepared once and run by name (decision 103), so the runs are the Bind
 * messages sent, matched to their texts through `pg_prepared_statements`.
 */
function countStatements(t: TestApp): { count(fragment: string): Promise<number>; restore(): void } {
  if (t.database.kind !== 'pglite') {
    const raw = t.database.raw as unknown as { query: (...args: unknown[]) => unknown };
    const queries = vi.spyOn(raw, 'query');
    return {
      count: async (fragment) =>
        queries.mock.calls.filter(([q]) =>
          String(typeof q === 'string' ? q : (q as { text?: string })?.text).includes(fragment),
        ).length,
      restore: () => queries.mockRestore(),
    };
  }
  const raw = t.database.raw as unknown as {
    execProtocolStream: (message: Uint8Array, ...rest: unknown[]) => unknown;
    query: <T>(text: string) => Promise<{ rows: T[] }>;
  };
  const bound: string[] = [];
  const original = raw.execProtocolStream.bind(raw);
  const sent = vi
    .spyOn(raw, 'execProtocolStream')
    .mockImplementation((message: Uint8Array, ...rest: unknown[]) => {
      // Protocol messages: a type byte, a length (itself included), the body. A Bind's body starts
      // with the portal's name and the statement's, each NUL-terminated.
      for (let at = 0; at < message.length; ) {
        const length = new DataView(message.buffer, message.byteOffset + at + 1, 4).getInt32(0);
        if (message[at] === 0x42) {
          const portalEnd = message.indexOf(0, at + 5);
          bound.push(
            new TextDecoder().decode(message.subarray(portalEnd + 1, message.indexOf(0, portalEnd + 1))),
          );
        }
        at += 1 + length;
      }
      return original(message, ...rest);
    });
  return {
    async count(fragment) {
      const { rows } = await raw.query<{ name: string; statement: string }>(
        'SELECT name, statement FROM pg_prepared_statements',
      );
      const names = new Set(rows.filter((row) => row.statement.includes(fragment)).map((row) => row.name));
      return bound.filter((name) => names.has(name)).length;
    },
    restore: () => sent.mockRestore(),
  };
}

/**
 * The web mount without a web build (the browser behaviour is covered by e2e/): API paths keep their
 * JSON answers, pages say how to build, and the build-id endpoint answers.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ webBuildDir: '/nonexistent/cairn-web-build' });
});
afterAll(() => t?.close());

describe('web mount', () => {
  it('leaves unknown API paths to the API: JSON 404', async () => {
    const res = await t.call('GET', '/api/no-such-thing/');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
    const post = await t.call('POST', '/api/no-such-thing/', { json: { a: 1 } });
    expect(post.status).toBe(404);
    expect(post.body).toMatchObject({ code: 'not_found' });
  });

  it('keeps API routes working, bodies included', async () => {
    const res = await t.call('POST', '/api/login/', { json: { email: 'nobody@example.com', password: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_credentials' });
  });

  it('answers pages with 503 and the build command while there is no build', async () => {
    for (const path of ['/', '/login', '/applications/x']) {
      const res = await t.call('GET', path);
      expect(res.status, path).toBe(503);
      expect(String(res.body)).toContain('npm run build');
    }
  });

  it('exposes the build id (null without a build) without caching', async () => {
    const res = await t.call('GET', '/version.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ buildId: null });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('sends browsers asking for /favicon.ico to the SVG icon', async () => {
    const res = await fetch(`${t.url}/favicon.ico`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/favicon.svg');
  });
});

/**
 * The web app's server-side calls (decision 003): in process by default, through the same routes,
 * auth, validation, errors and per-IP limits as over HTTP; over HTTP when API_URL names another host.
 * The web app's client (apps/web/app/lib/api.server.ts) parses whatever Response this fetch gives, so
 * an answer equal to the HTTP one reaches the loaders as before.
 */
describe('server-side API calls from the web app', () => {
  const browserIp = '203.0.113.7';
  let limited: TestApp;
  let remote: TestApp;
  let pointed: TestApp;
  beforeAll(async () => {
    const login = { perIp: { max: 3, windowSeconds: 600 }, perAccount: { max: 100, windowSeconds: 600 } };
    limited = await startTestApp({}, { rateLimits: { ...DEFAULT_AUTH_RATE_LIMITS, login } });
    remote = await startTestApp();
    pointed = await startTestApp({ apiUrl: remote.url, webBuildDir: '/nonexistent/cairn-web-build' });
  });
  afterAll(async () => {
    await Promise.all([limited?.close(), remote?.close(), pointed?.close()]);
  });

  /** A request as the web client makes one: headers as a record, a JSON string or a FormData body. */
  interface Init {
    method?: string;
    headers?: Record<string, string>;
    body?: string | FormData;
  }
  type Answer = { status: number; body: Record<string, unknown> };
  /** One page's call function: its calls share the page's memo. */
  const pageOf = (on: TestApp, ip = browserIp) => {
    const call = inProcessCall(on.app, ip);
    if (!call) throw new Error('expected the in-process path');
    return (path: string, init: Init = {}): Promise<Answer> =>
      call({
        method: init.method ?? 'GET',
        path,
        headers: init.headers ?? {},
        ...(init.body !== undefined && { body: init.body }),
      }).then((res) => ({ status: res.status, body: res.body as Record<string, unknown> }));
  };
  /** Status and JSON body: what the web client reads. */
  const inProcess = (on: TestApp, path: string, init: Init = {}, ip = browserIp) =>
    pageOf(on, ip)(path, init);
  const overHttp = (on: TestApp, path: string, init: Init = {}): Promise<Answer> =>
    fetch(`${on.url}${path}`, init).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
    }));
  const withToken = (token: string) => ({ headers: { authorization: `Token ${token}` } });
  const json = (body: unknown): Init => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('does not open a socket: the request goes through the app in process', async () => {
    const { token, user } = await t.signUp();
    const spy = vi.spyOn(globalThis, 'fetch');
    await expect(inProcess(t, '/api/me/', withToken(token))).resolves.toMatchObject({
      status: 200,
      body: { id: user.id },
    });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('authenticates with the cookie token, and refuses a bad one with the same 401 as HTTP', async () => {
    const { token } = await t.signUp();
    expect(await inProcess(t, '/api/me/', withToken(token))).toEqual(
      await overHttp(t, '/api/me/', withToken(token)),
    );
    const bad = await inProcess(t, '/api/me/', withToken('not-a-token'));
    expect(bad).toEqual(await overHttp(t, '/api/me/', withToken('not-a-token')));
    expect(bad.status).toBe(401);
  });

  it("looks a page's token up once for its reads, again after a write, and never for another page", async () => {
    const { token } = await t.signUp();
    const lookups = countStatements(t);
    const tokenLookups = () => lookups.count('"auth_tokens"');
    const page = pageOf(t);
    const read = (on: typeof page, path: string) => on(path, withToken(token)).then((res) => res.status);
    // The navigation's calls, in parallel as the layout's loader makes them, then one more read.
    expect(
      await Promise.all([read(page, '/api/me/'), read(page, '/api/applications/'), read(page, '/api/me/')]),
    ).toEqual([200, 200, 200]);
    expect(await read(page, '/api/me/')).toBe(200);
    expect(await tokenLookups()).toBe(1);
    // Another page has a memo of its own.
    expect(await read(pageOf(t), '/api/me/')).toBe(200);
    expect(await tokenLookups()).toBe(2);
    // A write in the same page may revoke the token (logout): the next read checks it again.
    const logout = await page('/api/logout/', { method: 'POST', ...withToken(token) });
    expect(logout.status).toBe(204);
    expect(await read(page, '/api/me/')).toBe(401);
    lookups.restore();
  });

  it("looks a page's application up once for its reads, and again after a write", async () => {
    const { token } = await t.signUp();
    const page = pageOf(t);
    const call = (path: string, init: Init = {}) =>
      page(path, { ...init, headers: { ...init.headers, authorization: `Token ${token}` } });
    const form = new FormData();
    form.set('name', 'Before');
    const created = await inProcess(t, '/api/applications/', {
      method: 'POST',
      body: form,
      ...withToken(token),
    });
    expect(created.status).toBe(201);
    const app = `/api/applications/${created.body.uuid}`;
    const statements = countStatements(t);
    // The API keys & widget page's calls, in parallel as its loaders make them; an id in capitals is the same id.
    const reads = await Promise.all([
      call(`/api/navigation/?application=${created.body.uuid}`),
      call(`${app}/api-keys/`),
      call(`${app}/widget/`),
      call(`/api/applications/${String(created.body.uuid).toUpperCase()}/`),
    ]);
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // One read of the owner's applications serves the navigation and the lookups (decision 111).
    expect(await statements.count('from "applications" where "applications"."owner_id" = $1 order by')).toBe(
      1,
    );
    expect(await statements.count('"applications"."uuid" = $1 and "applications"."owner_id" = $2')).toBe(0);
    // A write in the same page changes the application: the next read sees it as it is now.
    const renamed = await call(`${app}/`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After' }),
    });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'After' } });
    expect(await call(`${app}/`)).toMatchObject({ status: 200, body: { name: 'After' } });
    // Someone else's application is a 404 for every call of their page.
    const other = await t.signUp();
    const theirs = pageOf(t);
    const statuses = await Promise.all(
      [`${app}/api-keys/`, `${app}/widget/`].map((path) =>
        theirs(path, withToken(other.token)).then((res) => res.status),
      ),
    );
    expect(statuses).toEqual([404, 404]);
    statements.restore();
  });

  it('gives the same 404 and 400 answers as HTTP', async () => {
    const { token } = await t.signUp();
    const missing = '/api/applications/00000000-0000-4000-8000-000000000000/';
    const notFound = await inProcess(t, missing, withToken(token));
    expect(notFound).toEqual(await overHttp(t, missing, withToken(token)));
    expect(notFound).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const invalid = await inProcess(t, '/api/register/', json({ email: 'x' }));
    expect(invalid).toEqual(await overHttp(t, '/api/register/', json({ email: 'x' })));
    expect(invalid.status).toBe(400);
  });

  it('sends multipart bodies (files and fields) as fetch would', async () => {
    const { token } = await t.signUp();
    const form = new FormData();
    form.set('name', 'In-process app');
    form.set('items[0].type', 'file');
    form.set('items[0].file', new File(['Zebras have stripes.'], 'zebras.txt', { type: 'text/plain' }));
    const created = await inProcess(t, '/api/applications/', {
      method: 'POST',
      body: form,
      ...withToken(token),
    });
    expect(created).toMatchObject({ status: 201, body: { name: 'In-process app' } });
    const items = await inProcess(t, `/api/applications/${created.body.uuid}/knowledge/`, withToken(token));
    expect((items.body as unknown as { title: string }[]).map((i) => i.title)).toEqual(['zebras.txt']);
  });

  it("counts per-IP limits against the browser's address, not the server's", async () => {
    const attempt = (ip: string, i: number) =>
      inProcess(limited, '/api/login/', json({ email: `spray${i}@example.com`, password: 'wrong-1' }), ip);
    for (let i = 0; i < 3; i++) expect((await attempt(browserIp, i)).status).toBe(400);
    expect(await attempt(browserIp, 3)).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    // Another browser, and the server's own loopback address, are not limited by that one.
    expect((await attempt('198.51.100.4', 4)).status).toBe(400);
    expect(
      (await overHttp(limited, '/api/login/', json({ email: 'x@example.com', password: 'wrong-1' }))).status,
    ).toBe(400);
  });

  it('leaves calls to HTTP when API_URL is set', async () => {
    expect(inProcessCall(pointed.app, browserIp)).toBeNull();
    // The token exists only on the remote API: the pointed server's own routes do not know it.
    const { token } = await remote.signUp();
    expect((await overHttp(pointed, '/api/me/', withToken(token))).status).toBe(401);
  });
});
