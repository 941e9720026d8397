import { BUILTIN_EMBEDDING_MODEL, BUILTIN_TEXT_MODEL } from '@cairn/contracts/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
/** The users' Ollama: a newly selected embedding model is tried on it before it is saved. */
let fake: FakeOpenAI;
let alice: string;
let bob: string;
let appPath: string;
let textModel: string;
let embeddingModel: string;
let bobsModel: string;

async function providerWithModels(token: string, names: Array<[string, 'text' | 'embedding']>) {
  const provider = await t.call('POST', '/api/model-providers/', {
    token,
    json: { kind: 'ollama', name: 'Local', base_url: fake.origin },
  });
  const uuids: string[] = [];
  for (const [name, model_type] of names) {
    const res = await t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
      token,
      json: { name, model_type },
    });
    uuids.push(res.body.uuid);
  }
  return { provider: provider.body.uuid as string, uuids };
}

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeOpenAI({ models: ['llama3.2', 'nomic-embed-text', 'bobs-model'] });
  alice = (await t.signUp()).token;
  bob = (await t.signUp()).token;
  const app = await t.call('POST', '/api/applications/', { token: alice, json: { name: 'Helpdesk' } });
  appPath = `/api/applications/${app.body.uuid}/`;
  [textModel, embeddingModel] = (
    await providerWithModels(alice, [
      ['llama3.2', 'text'],
      ['nomic-embed-text', 'embedding'],
    ])
  ).uuids as [string, string];
  [bobsModel] = (await providerWithModels(bob, [['bobs-model', 'text']])).uuids as [string];
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('application settings and models', () => {
  it('starts with the defaults', async () => {
    const res = await t.call('GET', appPath, { token: alice });
    expect(res.body).toMatchObject({
      instructions: '',
      temperature: 0.2,
      strictness: 'strict',
      llm_models: [BUILTIN_TEXT_MODEL, BUILTIN_EMBEDDING_MODEL],
    });
  });

  it('changes instructions, temperature and strictness', async () => {
    const res = await t.call('PATCH', appPath, {
      token: alice,
      json: { instructions: 'Answer in French.', temperature: 0.7, strictness: 'balanced' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      instructions: 'Answer in French.',
      temperature: 0.7,
      strictness: 'balanced',
    });
    expect((await t.call('GET', appPath, { token: alice })).body.temperature).toBe(0.7);
    // A partial update leaves the rest alone.
    const renamed = await t.call('PATCH', appPath, { token: alice, json: { name: 'Helpdesk FR' } });
    expect(renamed.body).toMatchObject({
      name: 'Helpdesk FR',
      instructions: 'Answer in French.',
      strictness: 'balanced',
    });
  });

  it('rejects out-of-range settings with field errors', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ temperature: 2.5 }, 'temperature', /At most 2/],
      [{ temperature: -0.1 }, 'temperature', /At least 0/],
      [{ temperature: 'hot' }, 'temperature', /number/],
      [{ strictness: 'loose' }, 'strictness', /strict, balanced, relaxed/],
      [{ instructions: 'x'.repeat(4001) }, 'instructions', /4000/],
      [{ llm_models: 'abc' }, 'llm_models', /list/],
    ];
    for (const [json, field, message] of cases) {
      const res = await t.call('PATCH', appPath, { token: alice, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.errors[field]?.[0], JSON.stringify(json)).toMatch(message);
    }
    expect((await t.call('PATCH', appPath, { token: alice, json: { temperature: 2 } })).status).toBe(200);
    expect((await t.call('PATCH', appPath, { token: alice, json: { temperature: 0 } })).status).toBe(200);
  });

  it('selects models by uuid, the first of each kind being the selected one', async () => {
    const res = await t.call('PATCH', appPath, {
      token: alice,
      json: { llm_models: [embeddingModel, textModel, BUILTIN_TEXT_MODEL.uuid] },
    });
    expect(res.status).toBe(200);
    expect(res.body.llm_models).toEqual([
      { uuid: embeddingModel, name: 'nomic-embed-text', provider: 'ollama', model_type: 'embedding' },
      { uuid: textModel, name: 'llama3.2', provider: 'ollama', model_type: 'text' },
      BUILTIN_TEXT_MODEL,
    ]);
    const back = await t.call('PATCH', appPath, {
      token: alice,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, BUILTIN_EMBEDDING_MODEL.uuid] },
    });
    expect(back.body.llm_models).toEqual([BUILTIN_TEXT_MODEL, BUILTIN_EMBEDDING_MODEL]);
  });

  it("refuses another user's model, unknown ids, repeats and a missing kind", async () => {
    const cases: Array<[string[], RegExp]> = [
      [[bobsModel, BUILTIN_EMBEDDING_MODEL.uuid], /Unknown model/],
      [['00000000-0000-4000-8000-000000000000', BUILTIN_EMBEDDING_MODEL.uuid], /Unknown model/],
      [['gpt-4', BUILTIN_EMBEDDING_MODEL.uuid], /Unknown model/],
      [[textModel, textModel, embeddingModel], /twice/],
      [[textModel], /an embedding model/],
      [[embeddingModel], /a text model/],
      [[], /a text model/],
    ];
    for (const [llm_models, message] of cases) {
      const res = await t.call('PATCH', appPath, { token: alice, json: { llm_models } });
      expect(res.status, llm_models.join()).toBe(400);
      expect(res.body.errors.llm_models[0]).toMatch(message);
    }
    // Nothing was half-applied.
    const res = await t.call('GET', appPath, { token: alice });
    expect(res.body.llm_models).toEqual([BUILTIN_TEXT_MODEL, BUILTIN_EMBEDDING_MODEL]);
  });

  it("checks a newly chosen embedding model with one test embedding, and refuses it with the provider's answer", async () => {
    const { uuids } = await providerWithModels(alice, [['no-such-embed', 'embedding']]);
    const missing = uuids[0]!;
    const before = fake.requests.filter((r) => r.path === '/embeddings').length;
    const res = await t.call('PATCH', appPath, {
      token: alice,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, missing] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.llm_models[0]).toBe(
      'The embedding model "no-such-embed" did not work: The model "no-such-embed" was not found at the model ' +
        'provider "Local" (404). The provider said: "The model `no-such-embed` does not exist."',
    );
    // One try, and nothing saved: the application keeps the model it searches with.
    expect(fake.requests.filter((r) => r.path === '/embeddings').length).toBe(before + 1);
    expect((await t.call('GET', appPath, { token: alice })).body.llm_models).toEqual([
      BUILTIN_TEXT_MODEL,
      BUILTIN_EMBEDDING_MODEL,
    ]);

    // A provider that is down is refused the same way, with what went wrong.
    fake.set({ failWith: { status: 401, message: 'Invalid API key' } });
    const down = await t.call('PATCH', appPath, {
      token: alice,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, embeddingModel] },
    });
    fake.set({ failWith: undefined });
    expect(down.status).toBe(400);
    expect(down.body.errors.llm_models[0]).toMatch(
      /^The embedding model "nomic-embed-text" did not work: .*rejected the API key/,
    );

    // A model that works is saved; saving again without changing it costs no new embedding.
    const ok = await t.call('PATCH', appPath, {
      token: alice,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, embeddingModel] },
    });
    expect(ok.status).toBe(200);
    const calls = fake.requests.filter((r) => r.path === '/embeddings').length;
    const again = await t.call('PATCH', appPath, {
      token: alice,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, embeddingModel], temperature: 0.3 },
    });
    expect(again.status).toBe(200);
    expect(fake.requests.filter((r) => r.path === '/embeddings').length).toBe(calls);
    await t.call('PATCH', appPath, {
      token: alice,
      json: { llm_models: [BUILTIN_TEXT_MODEL.uuid, BUILTIN_EMBEDDING_MODEL.uuid] },
    });
  });

  it("answers 404 for another user's application", async () => {
    const res = await t.call('PATCH', appPath, { token: bob, json: { temperature: 1 } });
    expect(res.status).toBe(404);
  });
});
