import { BUILTIN_EMBEDDING_MODEL, BUILTIN_TEXT_MODEL } from '@cairn/contracts/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let fake: FakeOpenAI;
let token: string;
let embedModel: string;
let otherEmbedModel: string;

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeOpenAI({ models: ['embed-a', 'embed-b'], embeddingDimensions: 16 });
  ({ token } = await t.signUp());
  const provider = await t.call('POST', '/api/model-providers/', {
    token,
    json: { kind: 'openai_compatible', name: 'Embeddings', base_url: fake.url },
  });
  const add = (name: string) =>
    t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
      token,
      json: { name, model_type: 'embedding' },
    });
  embedModel = (await add('embed-a')).body.uuid;
  otherEmbedModel = (await add('embed-b')).body.uuid;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

interface Item {
  uuid: string;
  status: string;
  progress: number;
}

async function items(appId: string): Promise<Item[]> {
  const res = await t.call('GET', `/api/applications/${appId}/knowledge/`, { token });
  expect(res.status).toBe(200);
  return Array.isArray(res.body) ? res.body : res.body.items;
}

async function settled(appId: string): Promise<Item[]> {
  for (let i = 0; i < 300; i++) {
    const list = await items(appId);
    if (list.every((item) => item.status === 'ready' || item.status === 'failed')) return list;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('knowledge never settled');
}

async function vectorModels(appId: string): Promise<string[]> {
  const { rows } = await t.database.query<{ model_id: string }>(
    `SELECT DISTINCT v.model_id FROM knowledge_chunk_vectors v
       JOIN applications a ON a.id = v.application_id WHERE a.uuid = $1 ORDER BY 1`,
    [appId],
  );
  return rows.map((r) => r.model_id);
}

function listen(): Promise<{ events: Array<{ event: string; data: any }>; close(): void }> {
  const ws = new WebSocket(`${t.url.replace('http', 'ws')}/api/ws`, {
    headers: { authorization: `Token ${token}` },
  });
  const events: Array<{ event: string; data: any }> = [];
  return new Promise((resolve, reject) => {
    ws.on('message', (raw) => {
      const frame = JSON.parse(String(raw));
      if (frame.event === 'ready') resolve({ events, close: () => ws.close() });
      else events.push(frame);
    });
    ws.on('error', reject);
  });
}

describe('changing the embedding model re-indexes the knowledge', () => {
  it('re-queues every item, announces it, and indexes it with the new model', async () => {
    const form = new FormData();
    form.set('name', 'Reindexed');
    form.set('items[0].type', 'text');
    form.set('items[0].value', 'Cairns are piles of stones that mark hiking trails above the tree line.');
    form.set('items[1].type', 'text');
    form.set('items[1].value', 'The hut opens in June and closes when the first snow falls in autumn.');
    const created = await t.call('POST', '/api/applications/', { token, form });
    expect(created.status).toBe(201);
    const appId: string = created.body.uuid;
    const first = await settled(appId);
    expect(first.map((i) => i.status)).toEqual(['ready', 'ready']);
    // The built-in embedding is lexical: no vectors yet.
    expect(await vectorModels(appId)).toEqual([]);

    const socket = await listen();
    const changed = await t.call('PATCH', `/api/applications/${appId}/`, {
      token,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, embedModel] },
    });
    expect(changed.status).toBe(200);
    const after = await settled(appId);
    expect(after.map((i) => i.status)).toEqual(['ready', 'ready']);
    const models = await vectorModels(appId);
    expect(models).toHaveLength(1);
    expect(models[0]).toContain('embed-a');
    expect(
      fake.requests.some(
        (r) => r.path === '/embeddings' && (r.body as { model: string }).model === 'embed-a',
      ),
    ).toBe(true);

    // Every item was announced as queued again, then progressed to ready.
    const updates = socket.events.filter(
      (e) => e.event === 'kb_updates' && e.data.application_uuid === appId,
    );
    for (const item of after) {
      const statuses = updates.filter((u) => u.data.item.uuid === item.uuid).map((u) => u.data.item.status);
      expect(statuses[0]).toBe('queued');
      expect(statuses.at(-1)).toBe('ready');
    }
    socket.close();

    // Changing something else does not re-index.
    const embeddingCalls = fake.requests.filter((r) => r.path === '/embeddings').length;
    await t.call('PATCH', `/api/applications/${appId}/`, {
      token,
      json: { temperature: 0.9, llm_models: [embedModel, BUILTIN_TEXT_MODEL.uuid, otherEmbedModel] },
    });
    expect((await items(appId)).map((i) => i.status)).toEqual(['ready', 'ready']);
    expect(fake.requests.filter((r) => r.path === '/embeddings').length).toBe(embeddingCalls);

    // Back to the built-in embedding: re-indexed again, lexical only.
    await t.call('PATCH', `/api/applications/${appId}/`, {
      token,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, BUILTIN_EMBEDDING_MODEL.uuid] },
    });
    expect((await settled(appId)).map((i) => i.status)).toEqual(['ready', 'ready']);
  });

  it('refuses a model that cannot embed, and leaves the knowledge indexed as it was', async () => {
    const form = new FormData();
    form.set('name', 'Broken embeddings');
    form.set('items[0].type', 'text');
    form.set('items[0].value', 'A short note about mountain huts and their opening hours in summer.');
    const created = await t.call('POST', '/api/applications/', { token, form });
    const appId: string = created.body.uuid;
    await settled(appId);
    fake.set({ failWith: { status: 401, message: 'bad key' } });
    const res = await t.call('PATCH', `/api/applications/${appId}/`, {
      token,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, otherEmbedModel] },
    });
    fake.set({ failWith: undefined });
    expect(res.status).toBe(400);
    expect(res.body.errors.llm_models[0]).toMatch(/rejected the API key/);
    const [item] = await settled(appId);
    expect(item!.status).toBe('ready');
    const app = await t.call('GET', `/api/applications/${appId}/`, { token });
    expect(app.body.llm_models).toEqual([BUILTIN_TEXT_MODEL, BUILTIN_EMBEDDING_MODEL]);
  });
});
