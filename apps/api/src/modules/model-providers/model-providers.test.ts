import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../lib/secret-box.ts';
import { keyContext } from '../../models/provider-secrets.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let fake: FakeOpenAI;
let alice: string;
let bob: string;
const KEY = 'sk-proj-SECRET-abcdefghijklmnop-WXYZ';

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeOpenAI({ apiKey: KEY, models: ['gpt-fake', 'text-embed-fake'] });
  alice = (await t.signUp()).token;
  bob = (await t.signUp()).token;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const create = (token: string, json: Record<string, unknown>) =>
  t.call('POST', '/api/model-providers/', { token, json });

describe('model providers', () => {
  it('creates a provider, stores the key encrypted and only ever shows its last 4 characters', async () => {
    const res = await create(alice, {
      kind: 'openai_compatible',
      name: ' My vLLM ',
      base_url: `${fake.url}/`,
      api_key: KEY,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'openai_compatible',
      name: 'My vLLM',
      base_url: fake.url,
      key_last4: 'WXYZ',
      models: [],
    });
    expect(JSON.stringify(res.body)).not.toContain('SECRET');
    const { rows } = await t.database.query<{ key_ciphertext: string; key_last4: string }>(
      'SELECT key_ciphertext, key_last4 FROM model_providers WHERE uuid = $1',
      [res.body.uuid],
    );
    expect(rows[0]!.key_ciphertext).toMatch(/^v1\./);
    expect(rows[0]!.key_ciphertext).not.toContain('SECRET');
    const everything = await t.database.query('SELECT * FROM model_providers');
    expect(JSON.stringify(everything.rows)).not.toContain(KEY);
    for (const path of ['/api/model-providers/', `/api/model-providers/${res.body.uuid}/`]) {
      const read = await t.call('GET', path, { token: alice });
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toContain('SECRET');
    }
  });

  it('defaults the base URL per kind and requires what each kind needs', async () => {
    const openai = await create(alice, { kind: 'openai', name: 'OpenAI', api_key: 'sk-1234567890' });
    expect(openai.body.base_url).toBe('https://api.openai.com/v1');
    const ollama = await create(alice, { kind: 'ollama', name: 'Ollama' });
    expect(ollama.status).toBe(201);
    expect(ollama.body).toMatchObject({ base_url: 'http://localhost:11434', key_last4: null });
    const anthropic = await create(alice, { kind: 'anthropic', name: 'Claude' });
    expect(anthropic.status).toBe(400);
    expect(anthropic.body.errors).toEqual({ api_key: ['Required'] });
    const compatible = await create(alice, { kind: 'openai_compatible', name: 'x' });
    expect(compatible.status).toBe(400);
    expect(compatible.body.errors.base_url[0]).toMatch(/Required/);
  });

  it('rejects bad input with field errors', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ kind: 'mistral', name: 'x' }, 'kind', /Choose one of/],
      [{ kind: 'ollama', name: '  ' }, 'name', /Required/],
      [{ kind: 'ollama', name: 'x'.repeat(101) }, 'name', /100/],
      [{ kind: 'ollama', name: 'x', base_url: 'file:///etc/passwd' }, 'base_url', /http/],
      [{ kind: 'ollama', name: 'x', base_url: 'not a url' }, 'base_url', /full URL/],
      [{ kind: 'ollama', name: 'x', base_url: 'http://user:pw@localhost:11434' }, 'base_url', /key field/],
      [
        { kind: 'ollama', name: 'x', base_url: 'http://169.254.169.254/latest' },
        'base_url',
        /not a public internet address/,
      ],
      [
        { kind: 'ollama', name: 'x', base_url: 'http://[::ffff:169.254.169.254]/' },
        'base_url',
        /not a public internet address/,
      ],
      [
        { kind: 'ollama', name: 'x', base_url: 'http://0.0.0.0:11434' },
        'base_url',
        /not a public internet address/,
      ],
    ];
    for (const [json, field, message] of cases) {
      const res = await create(alice, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(res.body.errors[field]?.[0], JSON.stringify(json)).toMatch(message);
    }
    // Local model servers live on private networks: those are allowed.
    const lan = await create(alice, { kind: 'ollama', name: 'LAN', base_url: 'http://192.168.1.20:11434' });
    expect(lan.status).toBe(201);
    const malformed = await t.call('POST', '/api/model-providers/', { token: alice, raw: '{"kind":' });
    expect(malformed.status).toBe(400);
  });

  it('updates name, URL and key; removes the key; never returns it', async () => {
    const created = (
      await create(alice, { kind: 'openai_compatible', name: 'A', base_url: fake.url, api_key: KEY })
    ).body;
    const path = `/api/model-providers/${created.uuid}/`;
    const renamed = await t.call('PATCH', path, {
      token: alice,
      json: { name: 'B', api_key: 'sk-new-key-000011112222' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'B', key_last4: '2222', base_url: fake.url });
    const kept = await t.call('PATCH', path, { token: alice, json: { base_url: 'http://127.0.0.1:9/v1' } });
    expect(kept.body).toMatchObject({ key_last4: '2222', base_url: 'http://127.0.0.1:9/v1' });
    const cleared = await t.call('PATCH', path, { token: alice, json: { api_key: null } });
    expect(cleared.body.key_last4).toBeNull();
    const { rows } = await t.database.query<{ key_ciphertext: string | null }>(
      'SELECT key_ciphertext FROM model_providers WHERE uuid = $1',
      [created.uuid],
    );
    expect(rows[0]!.key_ciphertext).toBeNull();
    const bad = await t.call('PATCH', path, { token: alice, json: { base_url: 'ftp://x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.base_url).toBeDefined();
    const openai = (await create(alice, { kind: 'openai', name: 'O', api_key: 'sk-1234567890' })).body;
    const removeRequired = await t.call('PATCH', `/api/model-providers/${openai.uuid}/`, {
      token: alice,
      json: { api_key: '' },
    });
    expect(removeRequired.status).toBe(400);
    expect(removeRequired.body.errors).toEqual({ api_key: ['Required'] });
  });

  it('tests the connection by listing the models, with clear failures', async () => {
    const good = (
      await create(alice, { kind: 'openai_compatible', name: 'Good', base_url: fake.url, api_key: KEY })
    ).body;
    const ok = await t.call('POST', `/api/model-providers/${good.uuid}/test-connection/`, { token: alice });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, models: ['gpt-fake', 'text-embed-fake'] });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/models' });
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    const wrong = (
      await create(alice, { kind: 'openai', name: 'Wrong', base_url: fake.url, api_key: 'sk-wrong-0000' })
    ).body;
    const denied = await t.call('POST', `/api/model-providers/${wrong.uuid}/test-connection/`, {
      token: alice,
    });
    expect(denied.status).toBe(200);
    expect(denied.body.ok).toBe(false);
    expect(denied.body.detail).toMatch(/rejected the API key \(401\)/);

    const closed = await startFakeOpenAI();
    await closed.close();
    const gone = (await create(alice, { kind: 'ollama', name: 'Gone', base_url: closed.origin })).body;
    const refused = await t.call('POST', `/api/model-providers/${gone.uuid}/test-connection/`, {
      token: alice,
    });
    expect(refused.body).toMatchObject({ ok: false, models: [] });
    expect(refused.body.detail).toBe(
      `Could not reach the model provider "Gone" at ${closed.origin}. Check that it is running and that this server can reach it.`,
    );
  });

  it('lists Ollama models from /api/tags', async () => {
    fake.set({ apiKey: undefined });
    const ollama = (await create(alice, { kind: 'ollama', name: 'Local', base_url: fake.origin })).body;
    const res = await t.call('POST', `/api/model-providers/${ollama.uuid}/test-connection/`, {
      token: alice,
    });
    expect(res.body).toEqual({ ok: true, models: ['gpt-fake', 'text-embed-fake'] });
    expect(fake.requests.at(-1)!.path).toBe('/api/tags');
    fake.set({ apiKey: KEY });
  });

  it('adds and removes models; lists them with the built-ins', async () => {
    const provider = (
      await create(alice, { kind: 'openai_compatible', name: 'Models', base_url: fake.url, api_key: KEY })
    ).body;
    const models = `/api/model-providers/${provider.uuid}/models/`;
    const text = await t.call('POST', models, {
      token: alice,
      json: { name: ' gpt-fake ', model_type: 'text' },
    });
    expect(text.status).toBe(201);
    expect(text.body).toMatchObject({ name: 'gpt-fake', model_type: 'text' });
    const embed = await t.call('POST', models, {
      token: alice,
      json: { name: 'text-embed-fake', model_type: 'embedding' },
    });
    expect(embed.status).toBe(201);
    const dup = await t.call('POST', models, {
      token: alice,
      json: { name: 'gpt-fake', model_type: 'text' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual({ name: ['Already added'] });
    const bad = await t.call('POST', models, { token: alice, json: { name: '', model_type: 'chat' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['model_type', 'name']);

    const read = await t.call('GET', `/api/model-providers/${provider.uuid}/`, { token: alice });
    expect(read.body.models.map((m: { name: string }) => m.name)).toEqual(['text-embed-fake', 'gpt-fake']);
    const available = await t.call('GET', '/api/models/', { token: alice });
    expect(available.status).toBe(200);
    expect(available.body.slice(0, 2).map((m: { provider: string }) => m.provider)).toEqual([
      'builtin',
      'builtin',
    ]);
    expect(available.body).toContainEqual({
      uuid: text.body.uuid,
      name: 'gpt-fake',
      provider: 'openai_compatible',
      model_type: 'text',
      provider_name: 'Models',
      provider_uuid: provider.uuid,
    });
    const bobs = await t.call('GET', '/api/models/', { token: bob });
    expect(bobs.body.map((m: { provider: string }) => m.provider)).toEqual(['builtin', 'builtin']);

    expect((await t.call('DELETE', `${models}${text.body.uuid}/`, { token: alice })).status).toBe(204);
    expect((await t.call('DELETE', `${models}${text.body.uuid}/`, { token: alice })).status).toBe(404);
    const anthropic = (await create(alice, { kind: 'anthropic', name: 'Claude', api_key: 'sk-ant-12345678' }))
      .body;
    const noEmbeddings = await t.call('POST', `/api/model-providers/${anthropic.uuid}/models/`, {
      token: alice,
      json: { name: 'claude-embed', model_type: 'embedding' },
    });
    expect(noEmbeddings.status).toBe(400);
    expect(noEmbeddings.body.errors.model_type[0]).toMatch(/no embedding/);
  });

  it("sets and clears a model's prices per million tokens, within 0 to 1,000,000", async () => {
    const provider = (
      await create(alice, { kind: 'openai_compatible', name: 'Priced', base_url: fake.url, api_key: KEY })
    ).body;
    const models = `/api/model-providers/${provider.uuid}/models/`;
    const added = await t.call('POST', models, {
      token: alice,
      json: { name: 'gpt-fake', model_type: 'text' },
    });
    expect(added.body).toMatchObject({ input_price_per_million: null, output_price_per_million: null });
    const path = `${models}${added.body.uuid}/`;
    const priced = await t.call('PATCH', path, {
      token: alice,
      json: { input_price_per_million: 0.15, output_price_per_million: 0.6 },
    });
    expect(priced.status).toBe(200);
    expect(priced.body).toMatchObject({ input_price_per_million: 0.15, output_price_per_million: 0.6 });
    // An absent field stays; null clears.
    const cleared = await t.call('PATCH', path, { token: alice, json: { output_price_per_million: null } });
    expect(cleared.body).toMatchObject({ input_price_per_million: 0.15, output_price_per_million: null });
    const read = await t.call('GET', `/api/model-providers/${provider.uuid}/`, { token: alice });
    expect(read.body.models[0]).toMatchObject({
      input_price_per_million: 0.15,
      output_price_per_million: null,
    });

    for (const bad of [-1, 1_000_001, '1', true, { x: 1 }]) {
      const res = await t.call('PATCH', path, { token: alice, json: { input_price_per_million: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.errors).toHaveProperty('input_price_per_million');
    }
    expect((await t.call('PATCH', path, { token: bob, json: { input_price_per_million: 1 } })).status).toBe(
      404,
    );
    const unknown = `${models}${crypto.randomUUID()}/`;
    expect(
      (await t.call('PATCH', unknown, { token: alice, json: { input_price_per_million: 1 } })).status,
    ).toBe(404);
  });

  it("answers 404 for another user's provider on every operation, and 401 without a token", async () => {
    const mine = (
      await create(alice, { kind: 'openai_compatible', name: 'Mine', base_url: fake.url, api_key: KEY })
    ).body;
    const model = (
      await t.call('POST', `/api/model-providers/${mine.uuid}/models/`, {
        token: alice,
        json: { name: 'gpt-fake', model_type: 'text' },
      })
    ).body;
    const base = `/api/model-providers/${mine.uuid}/`;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', base],
      ['PATCH', base, { name: 'Stolen' }],
      ['DELETE', base],
      ['POST', `${base}test-connection/`],
      ['POST', `${base}models/`, { name: 'x', model_type: 'text' }],
      ['DELETE', `${base}models/${model.uuid}/`],
    ];
    for (const [method, path, json] of attempts) {
      const res = await t.call(method, path, { token: bob, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await t.call('GET', '/api/model-providers/', { token: bob })).body).toEqual([]);
    expect((await t.call('GET', '/api/model-providers/not-a-uuid/', { token: alice })).status).toBe(404);
    expect((await t.call('GET', '/api/model-providers/')).status).toBe(401);
    expect((await t.call('GET', '/api/models/')).status).toBe(401);
    expect((await t.call('GET', base, { token: alice })).body.name).toBe('Mine');
    expect((await t.call('DELETE', base, { token: alice })).status).toBe(204);
    expect((await t.call('GET', base, { token: alice })).status).toBe(404);
  });

  it('documents the routes in OpenAPI', async () => {
    const res = await t.call('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/model-providers/',
        '/api/model-providers/{providerId}/',
        '/api/model-providers/{providerId}/test-connection/',
        '/api/model-providers/{providerId}/models/',
        '/api/model-providers/{providerId}/models/{modelId}/',
        '/api/models/',
      ]),
    );
  });

  it('says so when a stored key cannot be decrypted (SECRET_KEY changed)', async () => {
    const provider = (
      await create(alice, { kind: 'openai_compatible', name: 'Old key', base_url: fake.url, api_key: KEY })
    ).body;
    const other = createSecretBox(randomBytes(32).toString('base64url'));
    await t.database.query('UPDATE model_providers SET key_ciphertext = $1 WHERE uuid = $2', [
      other.seal(KEY, keyContext(provider.uuid)),
      provider.uuid,
    ]);
    const res = await t.call('POST', `/api/model-providers/${provider.uuid}/test-connection/`, {
      token: alice,
    });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.detail).toMatch(/cannot be decrypted \(was SECRET_KEY changed\?\)/);
    // Entering the key again repairs it.
    await t.call('PATCH', `/api/model-providers/${provider.uuid}/`, { token: alice, json: { api_key: KEY } });
    const fixed = await t.call('POST', `/api/model-providers/${provider.uuid}/test-connection/`, {
      token: alice,
    });
    expect(fixed.body.ok).toBe(true);
  });
});
