import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropic, startFakeAnthropic } from '../testing/fake-anthropic-server.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { ModelProviderError } from './provider-errors.ts';
import { resolveTextModel } from './resolve-text-model.ts';

let t: TestApp;
let fake: FakeAnthropic;
let token: string;
let userId: number;
const KEY = 'sk-ant-api03-fake-key-ABCD';

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeAnthropic({ apiKey: KEY, models: ['claude-3-5-haiku-latest', 'claude-other'] });
  ({
    token,
    user: { id: userId },
  } = await t.signUp());
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function claude(apiKey: string, model = 'claude-3-5-haiku-latest') {
  const provider = await t.call('POST', '/api/model-providers/', {
    token,
    json: { kind: 'anthropic', name: 'Claude', base_url: fake.url, api_key: apiKey },
  });
  const added = await t.call('POST', `/api/model-providers/${provider.body.uuid}/models/`, {
    token,
    json: { name: model, model_type: 'text' },
  });
  return {
    provider: provider.body.uuid as string,
    ref: { uuid: added.body.uuid as string, name: model, provider: 'anthropic', model_type: 'text' as const },
  };
}

async function run(ref: Awaited<ReturnType<typeof claude>>['ref'], temperature = 1.5) {
  const model = await resolveTextModel(t.app, userId, ref, { maxRetries: 0 });
  const generation = model.generate({
    system: 'Answer from the passages.',
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'What is a cairn?' },
    ],
    temperature,
  });
  let text = '';
  for await (const piece of generation.textStream) text += piece;
  return { text, usage: await generation.usage };
}

describe('Anthropic', () => {
  it('lists models with x-api-key and the API version header', async () => {
    const { provider } = await claude(KEY);
    const res = await t.call('POST', `/api/model-providers/${provider}/test-connection/`, { token });
    expect(res.body).toEqual({ ok: true, models: ['claude-3-5-haiku-latest', 'claude-other'] });
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/v1/models');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('streams a Messages API answer, system prompt apart and temperature capped at 1', async () => {
    fake.set({ reply: 'A pile of stones.' });
    const { ref } = await claude(KEY);
    const { text, usage } = await run(ref);
    expect(text).toBe('A pile of stones.');
    expect(usage).toEqual({ input_tokens: 9, output_tokens: 4 });
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(KEY);
    const body = request.body as {
      system: Array<{ text: string }>;
      temperature: number;
      stream: boolean;
      messages: unknown[];
    };
    expect(body.system[0]!.text).toBe('Answer from the passages.');
    expect(body.temperature).toBe(1);
    expect(body.stream).toBe(true);
    expect(body.messages).toHaveLength(3);
  });

  it('maps a bad key, an unknown model and overload to clear errors', async () => {
    const bad = await claude('sk-ant-wrong-0000');
    const denied = await run(bad.ref).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(ModelProviderError);
    expect((denied as ModelProviderError).kind).toBe('auth');
    const test = await t.call('POST', `/api/model-providers/${bad.provider}/test-connection/`, { token });
    expect(test.body.ok).toBe(false);
    expect(test.body.detail).toMatch(/rejected the API key/);

    const unknown = await claude(KEY, 'claude-none');
    await expect(run(unknown.ref)).rejects.toThrow(/"claude-none" was not found/);

    fake.set({ failWith: { status: 429, type: 'rate_limit_error', message: 'slow down' } });
    const { ref } = await claude(KEY);
    const limited = (await run(ref).catch((e: unknown) => e)) as ModelProviderError;
    expect(limited.kind).toBe('rate_limited');
    fake.set({ failWith: undefined });
  });
});
