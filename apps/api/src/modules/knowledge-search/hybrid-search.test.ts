import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vectorSearch } from '../../rag/vector-search.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Search with a provider embedding model, end to end: an OpenAI-compatible server double (at the
 * wire) embeds the chunks during ingestion and the query during search; vectors and BM25 are fused.
 */
let t: TestApp;
let fake: FakeOpenAI;
let token: string;
let appUuid: string;

const PASSAGES = [
  'Glaciers are slow rivers of ice that melt as the climate warms.',
  'Bread is made from flour, water, salt and yeast.',
  'Bees pollinate flowers while they collect nectar.',
];

async function settled(uuid: string, count: number) {
  for (let i = 0; i < 300; i++) {
    const res = await t.call<Array<{ status: string; error: string | null }>>(
      'GET',
      `/api/applications/${uuid}/knowledge/`,
      { token },
    );
    if (res.body.length === count && res.body.every((x) => x.status === 'ready' || x.status === 'failed')) {
      return res.body;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('items did not settle');
}

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeOpenAI({ apiKey: 'sk-hybrid-1234', models: ['fake-embed'], embeddingDimensions: 12 });
  ({ token } = await t.signUp());
  const provider = await t.call('POST', '/api/model-providers/', {
    token,
    json: { kind: 'openai_compatible', name: 'Embeddings', base_url: fake.url, api_key: 'sk-hybrid-1234' },
  });
  expect(provider.status).toBe(201);
  const model = await t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
    token,
    json: { name: 'fake-embed', model_type: 'embedding' },
  });
  expect(model.status).toBe(201);
  const form = new FormData();
  form.append('name', 'Hybrid');
  const app = await t.call('POST', '/api/applications/', { token, form });
  appUuid = app.body.uuid;
  const patched = await t.call('PATCH', `/api/applications/${appUuid}/`, {
    token,
    json: { llm_models: ['builtin-extractive', model.body.uuid] },
  });
  expect(patched.status).toBe(200);
  const items = new FormData();
  PASSAGES.forEach((value, i) => {
    items.append(`items[${i}].type`, 'text');
    items.append(`items[${i}].value`, value);
    items.append(`items[${i}].title`, `Passage ${i}`);
  });
  const added = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, { token, form: items });
  expect(added.status).toBe(201);
  const settledItems = await settled(appUuid, PASSAGES.length);
  expect(settledItems.map((i) => i.status)).toEqual(['ready', 'ready', 'ready']);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('knowledge search with a provider embedding model', () => {
  it('stores a vector per chunk from the provider, of its dimension', async () => {
    const { rows } = await t.database.query<{ dimensions: number; n: number }>(
      'SELECT dimensions, count(*)::int AS n FROM knowledge_chunk_vectors GROUP BY dimensions',
    );
    expect(rows).toEqual([{ dimensions: 12, n: PASSAGES.length }]);
  });

  it('fuses the vector ranking with BM25', async () => {
    const before = fake.requests.filter((r) => r.path === '/embeddings').length;
    // The exact text of a passage: the double gives it the same vector as that chunk, and it
    // shares every word with it, so it is first in both rankings.
    const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/search/`, {
      token,
      json: { query: PASSAGES[1], top_k: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ item_title: 'Passage 1', content: PASSAGES[1] });
    expect(res.body.results[0].score).toBeCloseTo(2 / 61, 10);
    // The vector ranking returns every chunk, so all three come back, fused.
    expect(res.body.results).toHaveLength(3);
    expect(fake.requests.filter((r) => r.path === '/embeddings').length).toBe(before + 1);
  });

  it('leaves a switched-off item out of the vector ranking too, and brings it back', async () => {
    const list = await t.call<Array<{ uuid: string; title: string }>>(
      'GET',
      `/api/applications/${appUuid}/knowledge/`,
      { token },
    );
    const bread = list.body.find((item) => item.title === 'Passage 1')!.uuid;
    const toggle = (enabled: boolean) =>
      t.call('PATCH', `/api/applications/${appUuid}/knowledge/${bread}/`, { token, json: { enabled } });
    const titles = async () => {
      const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/search/`, {
        token,
        json: { query: PASSAGES[1], top_k: 3 },
      });
      return res.body.results.map((r: { item_title: string }) => r.item_title).sort();
    };
    expect((await toggle(false)).status).toBe(200);
    // The vector ranking itself (passages are loaded with `enabled` checked again): Passage 1's
    // own vector finds everything but Passage 1.
    const { rows } = await t.database.query<{
      chunk_id: number;
      application_id: number;
      model_id: string;
      embedding: string;
    }>(
      `SELECT v.chunk_id, v.application_id, v.model_id, v.embedding::text AS embedding
       FROM knowledge_chunk_vectors v JOIN knowledge_chunks c ON c.id = v.chunk_id
       JOIN knowledge_items i ON i.id = c.item_id WHERE i.uuid = $1`,
      [bread],
    );
    const own = rows[0]!;
    const ranked = await vectorSearch(t.database, {
      applicationId: own.application_id,
      modelId: own.model_id,
      vector: JSON.parse(own.embedding) as number[],
      limit: 10,
    });
    expect(ranked).toHaveLength(PASSAGES.length - 1);
    expect(ranked.map((r) => r.id)).not.toContain(own.chunk_id);
    // The vector ranking returns every chunk it may: the two others, not Passage 1.
    expect(await titles()).toEqual(['Passage 0', 'Passage 2']);
    expect((await toggle(true)).status).toBe(200);
    expect(await titles()).toEqual(['Passage 0', 'Passage 1', 'Passage 2']);
  });

  it('answers a provider failure during search with the error body, without the key', async () => {
    fake.set({ apiKey: 'sk-rotated' });
    const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/search/`, {
      token,
      json: { query: 'glaciers' },
    });
    fake.set({ apiKey: 'sk-hybrid-1234' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain('sk-');
  });
});
