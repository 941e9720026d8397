import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from './api.server';
import { ApiError, MESSAGE_TOKEN_MISSING, RETRY_STATUS_CODES } from './api-error';

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

  it('calls the API through the given fetch (the in-process path), with the same token and errors', async () => {
    const seen: Request[] = [];
    const inProcess: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init));
      return Response.json({ detail: 'Not found.', code: 'not_found' }, { status: 404 });
    };
    const api = createApiClient({ baseURL, token: 'abc123', fetch: inProcess });
    await expect(api.get('/api/applications/x/')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'Not found.',
    });
    expect(seen.map((r) => [r.method, new URL(r.url).pathname, r.headers.get('authorization')])).toEqual([
      ['GET', '/api/applications/x/', 'Token abc123'],
    ]);
    expect(requests).toHaveLength(0);
  });
});
