import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../testing/fake-openai-server.ts';
import { listRemoteModels } from './list-remote-models.ts';
import type { ProviderConnection } from './load-provider-model.ts';
import { ModelProviderError } from './provider-errors.ts';
import { ProviderUnreachableError, providerFetchFor } from './provider-url.ts';

const LOCAL_INSTALL = { localInstance: true, allowed: [] };

let fake: FakeOpenAI;
let odd: http.Server;
let oddUrl: string;

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['b-model', 'a-model'] });
  // A server that is not a model API: redirects and HTML.
  odd = http.createServer((req, res) => {
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>not an API</html>');
    }
  });
  await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
  oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fake.close();
  await new Promise((r) => odd.close(r));
});

const connection = (overrides: Partial<ProviderConnection>): ProviderConnection => ({
  uuid: '00000000-0000-4000-8000-000000000000',
  kind: 'openai_compatible',
  name: 'Test',
  baseUrl: fake.url,
  apiKey: undefined,
  addresses: LOCAL_INSTALL,
  ...overrides,
});

async function failure(promise: Promise<unknown>): Promise<ModelProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelProviderError);
  return error as ModelProviderError;
}

describe('listRemoteModels', () => {
  it('lists OpenAI-compatible models sorted, without a key when none is set', async () => {
    expect(await listRemoteModels(connection({}))).toEqual(['a-model', 'b-model']);
    expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it("falls back to Ollama's /v1/models when /api/tags is missing, with or without /v1 in the URL", async () => {
    fake.set({ missing: ['/api/tags'] });
    expect(await listRemoteModels(connection({ kind: 'ollama', baseUrl: fake.origin }))).toEqual([
      'a-model',
      'b-model',
    ]);
    expect(fake.requests.slice(-2).map((r) => r.path)).toEqual(['/api/tags', '/models']);
    fake.set({ missing: [] });
    expect(await listRemoteModels(connection({ kind: 'ollama', baseUrl: fake.url }))).toEqual([
      'a-model',
      'b-model',
    ]);
    expect(fake.requests.at(-1)!.path).toBe('/api/tags');
  });

  it('gives up on a silent server', async () => {
    fake.set({ headersDelayMs: 3_000 });
    const error = await failure(listRemoteModels(connection({}), 200));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not answer within/);
    fake.set({ headersDelayMs: 0 });
  });

  it('reports a server that is not a model API, and never follows a redirect', async () => {
    const html = await failure(listRemoteModels(connection({ baseUrl: oddUrl })));
    expect(html.message).toMatch(/not JSON; check the base URL/);
    const redirect = await failure(listRemoteModels(connection({ baseUrl: `${oddUrl}/redirect` })));
    expect(redirect.message).toMatch(/redirect \(302\)/);
  });

  it('refuses metadata and unspecified addresses before connecting, as it reports any unreachable provider', async () => {
    const metadata = await failure(listRemoteModels(connection({ baseUrl: 'http://169.254.169.254/v1' })));
    expect(metadata.kind).toBe('unreachable');
    expect(metadata.message).toBe(
      'Could not reach the model provider "Test" at http://169.254.169.254/v1. Check that it is running and that this server can reach it.',
    );
    const providerFetch = providerFetchFor(LOCAL_INSTALL);
    await expect(providerFetch('http://[fe80::1]/v1/models')).rejects.toThrow(ProviderUnreachableError);
    await expect(providerFetch('http://0.0.0.0:11434/api/tags')).rejects.toThrow(ProviderUnreachableError);
    // A host name is resolved first: localhost is fine (local model servers live there).
    const res = await providerFetch(`${fake.url.replace('127.0.0.1', 'localhost')}/models`);
    expect(res.status).toBe(200);
  });
});
