import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from './api.server';
import { ApiError, MESSAGE_TOKEN_MISSING, RETRY_STATUS_CODES } from './api-error';
import type { InProcessCall } from './load-context';

/** A real HTTP server on loopback that answers what the test asks for and records every request. */
let server: http.Server;
let baseURL: string;
let requests: { method: string; url: string; authorization?: string; forwardedFor?: string; body: string }[] =
  [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        forwardedFor: req.headers['x-forwarded-for'] as string | undefined,
        body,
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  requests = [];
  answer = { status: 200, body: {} };
});

describe('request helper', () => {
  it('sends Authorization: Token <token> and parses JSON', async () => {
    answer = { status: 200, body: [{ uuid: 'a' }] };
    const api = createApiClient({ baseURL, token: 'abc123' });
    await expect(api.get('/api/applications/')).resolves.toEqual([{ uuid: 'a' }]);
    expect(requests).toEqual([expect.objectContaining({ method: 'GET', authorization: 'Token abc123' })]);
  });

  it("fails locally with 'Authentication token missing' when there is no token", async () => {
    const api = createApiClient({ baseURL, token: null });
    const error = await api.get('/api/me/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(MESSAGE_TOKEN_MISSING);
    expect(requests).toHaveLength(0);
  });

  it("forwards the browser's address for the API's per-IP limits", async () => {
    const api = createApiClient({ baseURL, token: null, forwardedFor: '203.0.113.7' });
    await api.post('/api/register/', { email: 'a@b.c' }, { auth: false });
    expect(requests[0]?.forwardedFor).toBe('203.0.113.7');
  });

  it('sends no token for public calls', async () => {
    const api = createApiClient({ baseURL, token: null });
    await api.post('/api/login/', { email: 'a@b.c', password: 'x' }, { auth: false });
    expect(requests[0]).toMatchObject({ method: 'POST', authorization: undefined });
    expect(JSON.parse(requests[0]!.body)).toEqual({ email: 'a@b.c', password: 'x' });
  });

  it.each(RETRY_STATUS_CODES)('retries a GET once on %i', async (status) => {
    answer = { status, body: { detail: 'Busy', code: 'unavailable' } };
    const api = createApiClient({ baseURL, token: 't' });
    const error = (await api.get('/api/me/').catch((e: unknown) => e)) as ApiError;
    expect(requests).toHaveLength(2);
    expect(error.status).toBe(status);
    expect(error.message).toBe('Busy');
  });

  it('does not retry a GET on other errors', async () => {
    answer = { status: 404, body: { detail: 'Not found.', code: 'not_found' } };
    const api = createApiClient({ baseURL, token: 't' });
    await expect(api.get('/api/x/')).rejects.toMatchObject({ status: 404, message: 'Not found.' });
    expect(requests).toHaveLength(1);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('never retries %s', async (method) => {
    answer = { status: 503, body: { detail: 'Busy' } };
    const api = createApiClient({ baseURL, token: 't' });
    await expect(api.request(method, '/api/x/', { body: { a: 1 } })).rejects.toMatchObject({ status: 503 });
    expect(requests).toHaveLength(1);
  });

  it('normalises field errors from a 400 body', async () => {
    answer = {
      status: 400,
      body: { detail: 'Invalid input', code: 'invalid', errors: { name: ['Required'] } },
    };
    const api = createApiClient({ baseURL, token: 't' });
    await expect(api.post('/api/applications/', { name: '' })).rejects.toMatchObject({
      status: 400,
      code: 'invalid',
      message: 'Invalid input',
      errors: { name: ['Required'] },
    });
  });

  it("a server that is not there gives the network error's message", async () => {
    const api = createApiClient({ baseURL: 'http://127.0.0.1:9', token: 't' });
    const error = (await api.post('/api/x/', {}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBeUndefined();
    expect(error.message.length).toBeGreaterThan(0);
  });

  it('calls the API in process (no socket) with the same token, query, bodies and errors', async () => {
    const seen: Parameters<InProcessCall>[0][] = [];
    let status = 404;
    const inProcess: InProcessCall = async (request) => {
      seen.push(request);
      return status < 400
        ? { status, body: { ok: true } }
        : { status, body: { detail: 'Not found.', code: 'not_found', errors: ['Not found.'] } };
    };
    const api = createApiClient({ baseURL, token: 'abc123', inProcess });
    await expect(
      api.get('/api/applications/x/', { query: { q: 'a b', none: undefined } }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'Not found.',
    });
    status = 200;
    await expect(api.post('/api/x/', { name: 'n' })).resolves.toEqual({ ok: true });
    const form = new FormData();
    form.set('name', 'n');
    await api.post('/api/y/', form);
    expect(seen).toEqual([
      {
        method: 'GET',
        path: '/api/applications/x/?q=a+b',
        headers: { accept: 'application/json', authorization: 'Token abc123' },
      },
      {
        method: 'POST',
        path: '/api/x/',
        headers: {
          accept: 'application/json',
          authorization: 'Token abc123',
          'content-type': 'application/json',
        },
        body: '{"name":"n"}',
      },
      {
        method: 'POST',
        path: '/api/y/',
        headers: expect.not.objectContaining({ 'content-type': expect.anything() }),
        body: form,
      },
    ]);
    expect(requests).toHaveLength(0);
  });

  it('retries a GET once in process on the same statuses, never a POST', async () => {
    const calls: string[] = [];
    const inProcess: InProcessCall = async ({ method }) => {
      calls.push(method);
      return { status: 503, body: { detail: 'Busy', code: 'unavailable' } };
    };
    const api = createApiClient({ baseURL, token: 't', inProcess });
    await expect(api.get('/api/me/')).rejects.toMatchObject({ status: 503, message: 'Busy' });
    await expect(api.post('/api/x/', {})).rejects.toMatchObject({ status: 503 });
    expect(calls).toEqual(['GET', 'GET', 'POST']);
  });
});
