import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { ModelProviderError } from './provider-errors.ts';
import { resolveTextModel } from './resolve-text-model.ts';
import type { TextModel } from './types.ts';

let t: TestApp;
let fake: FakeOpenAI;
let token: string;
let userId: number;
let providerUuid: string;

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeOpenAI({ apiKey: 'sk-test-key-1234', models: ['fake-chat'] });
  ({
    token,
    user: { id: userId },
  } = await t.signUp());
  const provider = await t.call('POST', '/api/model-providers/', {
    token,
    json: { kind: 'openai_compatible', name: 'Local vLLM', base_url: fake.url, api_key: 'sk-test-key-1234' },
  });
  providerUuid = provider.body.uuid;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function textModel(name: string, options = {}): Promise<TextModel> {
  const added = await t.call('POST', `/api/model-providers/${providerUuid}/models/`, {
    token,
    json: { name, model_type: 'text' },
  });
  const uuid = added.status === 201 ? added.body.uuid : undefined;
  const ref = {
    uuid: uuid ?? (await findModel(name)),
    name,
    provider: 'openai_compatible',
    model_type: 'text' as const,
  };
  return resolveTextModel(t.app, userId, ref, options);
}
async function findModel(name: string): Promise<string> {
  const provider = await t.call('GET', `/api/model-providers/${providerUuid}/`, { token });
  return provider.body.models.find((m: { name: string }) => m.name === name).uuid;
}

async function collect(model: TextModel, signal?: AbortSignal) {
  const generation = model.generate({
    system: 'Be brief.',
    messages: [{ role: 'user', content: 'Hi there' }],
    temperature: 0.3,
    signal,
  });
  let text = '';
  for await (const piece of generation.textStream) text += piece;
  return { text, usage: await generation.usage };
}

async function failure(model: TextModel): Promise<ModelProviderError> {
  const error = await collect(model).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelProviderError);
  return error as ModelProviderError;
}

describe('resolveTextModel over the OpenAI-compatible wire', () => {
  it('streams the answer through chat-completions with the system prompt, history and temperature', async () => {
    fake.set({ reply: 'Cairns mark the trail.', failWith: undefined, chunkDelayMs: 0, headersDelayMs: 0 });
    const { text, usage } = await collect(await textModel('fake-chat'));
    expect(text).toBe('Cairns mark the trail.');
    expect(usage?.output_tokens).toBe(4);
    const request = fake.requests.findLast((r) => r.path === '/chat/completions')!;
    expect(request.headers.authorization).toBe('Bearer sk-test-key-1234');
    const body = request.body as { model: string; stream: boolean; temperature: number; messages: unknown[] };
    expect(body.model).toBe('fake-chat');
    expect(body.stream).toBe(true);
    expect(body.temperature).toBe(0.3);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi there' },
    ]);
  });

  it('maps a rejected key to a clear message', async () => {
    const model = await textModel('fake-chat');
    await t.call('PATCH', `/api/model-providers/${providerUuid}/`, {
      token,
      json: { api_key: 'sk-wrong-key-9999' },
    });
    const error = await failure(await textModel('fake-chat'));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/rejected the API key \(401\)/);
    await t.call('PATCH', `/api/model-providers/${providerUuid}/`, {
      token,
      json: { api_key: 'sk-test-key-1234' },
    });
    expect((await collect(model)).text).not.toBe('');
  });

  it('maps an unknown model, a rate limit and a server error', async () => {
    const unknown = await failure(await textModel('no-such-model'));
    expect(unknown.kind).toBe('model_not_found');
    expect(unknown.message).toContain('"no-such-model" was not found');

    fake.set({ failWith: { status: 429, message: 'Rate limit reached' } });
    const limited = await failure(await textModel('fake-chat', { maxRetries: 0 }));
    expect(limited.kind).toBe('rate_limited');
    expect(limited.message).toMatch(/rate limiting/);
    fake.set({ failWith: { status: 500, message: 'boom' } });
    const broken = await failure(await textModel('fake-chat', { maxRetries: 0 }));
    expect(broken.kind).toBe('provider_error');
    expect(broken.message).toContain('(500)');
    fake.set({ failWith: undefined });
  });

  it('tries a rate-limited call again after the wait the provider asks for, then gives up with its status', async () => {
    const calls = () => fake.requests.filter((r) => r.path === '/chat/completions').length;
    fake.set({ reply: 'Second time lucky.', failWith: { status: 429, message: 'Slow down' } });
    fake.set({ failTimes: 1, retryAfterMs: 20 });
    let before = calls();
    expect((await collect(await textModel('fake-chat', { maxRetries: 1 }))).text).toBe('Second time lucky.');
    expect(calls() - before).toBe(2);

    fake.set({ failWith: { status: 429, message: 'Slow down' }, failTimes: 3, retryAfterMs: 20 });
    before = calls();
    const limited = await failure(await textModel('fake-chat', { maxRetries: 1 }));
    expect(limited.kind).toBe('rate_limited');
    expect(calls() - before).toBe(2);

    // A rejected key is not tried again.
    fake.set({ failWith: { status: 401, message: 'Incorrect API key provided.' }, failTimes: 3 });
    before = calls();
    expect((await failure(await textModel('fake-chat', { maxRetries: 1 }))).kind).toBe('auth');
    expect(calls() - before).toBe(1);
    fake.set({ failWith: undefined, failTimes: undefined, retryAfterMs: undefined });
  });

  it('gives up on a silent provider, before the first token and mid-stream', async () => {
    fake.set({ headersDelayMs: 5_000 });
    const silent = await failure(await textModel('fake-chat', { idleTimeoutMs: 300 }));
    expect(silent.kind).toBe('timeout');
    expect(silent.message).toMatch(/did not answer/);
    fake.set({ headersDelayMs: 0, chunkDelayMs: 5_000, reply: 'one two three' });
    const stalled = await failure(await textModel('fake-chat', { idleTimeoutMs: 300 }));
    expect(stalled.kind).toBe('timeout');
    fake.set({ chunkDelayMs: 0 });
    // A model still loading: the first token may take longer than the pause allowed between tokens.
    fake.set({ headersDelayMs: 800, reply: 'Loaded at last.' });
    const slowStart = await textModel('fake-chat', { idleTimeoutMs: 300, firstTokenTimeoutMs: 5_000 });
    expect((await collect(slowStart)).text).toBe('Loaded at last.');
    const tooSlow = await failure(
      await textModel('fake-chat', { idleTimeoutMs: 5_000, firstTokenTimeoutMs: 300 }),
    );
    expect(tooSlow.message).toMatch(/did not answer within 300 ms\./);
    fake.set({ headersDelayMs: 0 });
  });

  it('reports a refused connection', async () => {
    const closed = await startFakeOpenAI();
    const url = closed.url;
    await closed.close();
    const provider = await t.call('POST', '/api/model-providers/', {
      token,
      json: { kind: 'ollama', name: 'Gone', base_url: url.replace(/\/v1$/, '') },
    });
    const added = await t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
      token,
      json: { name: 'llama3', model_type: 'text' },
    });
    const model = await resolveTextModel(t.app, userId, {
      uuid: added.body.uuid,
      name: 'llama3',
      provider: 'ollama',
      model_type: 'text',
    });
    const error = await failure(model);
    expect(error.kind).toBe('unreachable');
    expect(error.message).toMatch(
      /^Could not reach the model provider ".*" at http:\/\/127\.0\.0\.1:\d+\. Check that it is running/,
    );
  });

  it("refuses built-in refs, unknown refs and another user's models", async () => {
    const uuid = await findModel('fake-chat');
    const ref = { uuid, name: 'fake-chat', provider: 'openai_compatible', model_type: 'text' as const };
    const other = await t.signUp();
    await expect(resolveTextModel(t.app, other.user.id, ref)).rejects.toThrow(/no longer exists/);
    await expect(
      resolveTextModel(t.app, userId, { ...ref, uuid: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toBeInstanceOf(ModelProviderError);
    await expect(
      resolveTextModel(t.app, userId, { ...ref, uuid: 'builtin-extractive', provider: 'builtin' }),
    ).rejects.toThrow(/built in/);
  });

  it('hands a caller abort back as is', async () => {
    fake.set({ chunkDelayMs: 200, reply: 'a b c d e f g' });
    const controller = new AbortController();
    const model = await textModel('fake-chat');
    const pending = collect(model, controller.signal);
    setTimeout(() => controller.abort(new Error('user stopped')), 100);
    await expect(pending).rejects.toThrow('user stopped');
    fake.set({ chunkDelayMs: 0 });
  });

  it('speaks chat-completions (not the Responses API) for OpenAI and Ollama (under /v1) too', async () => {
    fake.set({ reply: 'Same wire.', apiKey: undefined });
    for (const [kind, baseUrl] of [
      ['openai', fake.url],
      ['ollama', fake.origin],
    ] as const) {
      const provider = await t.call('POST', '/api/model-providers/', {
        token,
        json: {
          kind,
          name: kind,
          base_url: baseUrl,
          api_key: kind === 'openai' ? 'sk-openai-0000' : undefined,
        },
      });
      const added = await t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
        token,
        json: { name: 'fake-chat', model_type: 'text' },
      });
      const model = await resolveTextModel(t.app, userId, {
        uuid: added.body.uuid,
        name: 'fake-chat',
        provider: kind,
        model_type: 'text',
      });
      expect((await collect(model)).text).toBe('Same wire.');
      const request = fake.requests.at(-1)!;
      expect(request.url).toBe('/v1/chat/completions');
      expect((request.body as { stream: boolean }).stream).toBe(true);
    }
    fake.set({ apiKey: 'sk-test-key-1234' });
  });
});
