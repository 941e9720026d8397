import { providerModels } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, fakeEmbedding, startFakeOpenAI } from '../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { ModelProviderError } from './provider-errors.ts';
import { resolveProviderEmbedder } from './resolve-embedder.ts';

let t: TestApp;
let fake: FakeOpenAI;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeOpenAI({
    apiKey: 'sk-embed-key-5678',
    models: ['fake-embed'],
    embeddingDimensions: 12,
  });
  ({ token } = await t.signUp());
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function embeddingRef(kind: string, baseUrl: string, name: string, apiKey?: string) {
  const provider = await t.call('POST', '/api/model-providers/', {
    token,
    json: { kind, name: `${kind} embeddings`, base_url: baseUrl, api_key: apiKey },
  });
  const model = await t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
    token,
    json: { name, model_type: 'embedding' },
  });
  return { uuid: model.body.uuid as string, name, provider: kind, model_type: 'embedding' as const };
}

describe('resolveProviderEmbedder', () => {
  it('embeds through /embeddings, learning and keeping the dimension', async () => {
    const ref = await embeddingRef('openai_compatible', fake.url, 'fake-embed', 'sk-embed-key-5678');
    const embedder = await resolveProviderEmbedder(t.app, ref);
    expect(embedder.dimensions).toBe(12);
    expect(embedder.id).toContain('fake-embed');
    const vectors = await embedder.embed(['first text', 'second text']);
    expect(vectors).toEqual([fakeEmbedding('first text', 12), fakeEmbedding('second text', 12)]);
    const [row] = await t.database.db.select().from(providerModels).where(eq(providerModels.uuid, ref.uuid));
    expect(row?.dimensions).toBe(12);
    const calls = fake.requests.filter((r) => r.path === '/embeddings').length;
    // Known dimension: resolving again sends no probe.
    const again = await resolveProviderEmbedder(t.app, ref);
    expect(again.id).toBe(embedder.id);
    expect(fake.requests.filter((r) => r.path === '/embeddings').length).toBe(calls);
    expect(await again.embed([])).toEqual([]);
  });

  it('uses Ollama under /v1', async () => {
    fake.set({ apiKey: undefined });
    const ref = await embeddingRef('ollama', fake.origin, 'fake-embed');
    const embedder = await resolveProviderEmbedder(t.app, ref);
    expect(await embedder.embed(['x'])).toEqual([fakeEmbedding('x', 12)]);
    expect(fake.requests.at(-1)?.headers.authorization).toBeUndefined();
    fake.set({ apiKey: 'sk-embed-key-5678' });
  });

  it('fails clearly on a bad key and on an unknown model', async () => {
    const bad = await embeddingRef('openai_compatible', fake.url, 'fake-embed', 'sk-wrong-key-0000');
    const error = await resolveProviderEmbedder(t.app, bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect((error as ModelProviderError).kind).toBe('auth');
    const unknown = await embeddingRef('openai_compatible', fake.url, 'no-embed', 'sk-embed-key-5678');
    await expect(resolveProviderEmbedder(t.app, unknown)).rejects.toThrow(/"no-embed" was not found/);
    await expect(
      resolveProviderEmbedder(t.app, { ...unknown, uuid: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toThrow(/no longer exists/);
  });
});
