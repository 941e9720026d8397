import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
const logged: unknown[] = [];
beforeAll(async () => {
  t = await startTestApp(
    {},
    {
      beforeListen: (app) => {
        app.get('/api/test-only/boom/', async () => {
          throw new Error('secret internals /etc/passwd');
        });
        app.addHook('onError', async (request) => {
          logged.push(request.id);
        });
      },
    },
  );
});
afterAll(() => t.close());

describe('platform behaviour', () => {
  it('reports health once migrations are applied', async () => {
    const res = await t.call('GET', '/api/health/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers an unknown API path with 404 not_found', async () => {
    const res = await t.call('GET', '/api/does-not-exist/');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect(typeof res.body.detail).toBe('string');
  });

  it('answers malformed JSON with 400 and a too-large body with 413', async () => {
    const bad = await t.call('POST', '/api/login/', { raw: '{"email": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('Malformed JSON in request body.');
    const big = await t.call('POST', '/api/login/', {
      raw: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
  });

  it('hides internals of an unexpected error and ties it to a request id', async () => {
    const res = await t.call('GET', '/api/test-only/boom/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'Internal Server Error', code: 'internal' });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged).toContain(id);
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const res = await t.call('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/register/', '/api/applications/', '/api/login/']),
    );
    const register = res.body.paths['/api/register/'].post;
    expect(register.requestBody.content['application/json'].schema.properties).toHaveProperty('email');
    const ui = await fetch(`${t.url}/api/docs/`, { headers: { accept: 'text/html' } });
    expect(ui.status).toBe(200);
  });

  it('sends security headers', async () => {
    const res = await t.call('GET', '/api/health/');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});
