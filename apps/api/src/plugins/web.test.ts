import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

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
