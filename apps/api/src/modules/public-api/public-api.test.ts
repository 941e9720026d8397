import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applicationWith, conversationsOf, useProviderModel } from '../../testing/chat-fixtures.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { NOT_COVERED_ANSWER } from '../chatrooms/answer/no-answer.ts';
import { BAD_KEYS_PER_MINUTE } from './authenticate-api-key.ts';

const PROVIDER_KEY = 'sk-provider-key-1';
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.\n\n# Batteries\n\nBatteries are covered for one year from the date of purchase.',
};
const SECRET_RECIPE = {
  title: 'Bob recipes',
  text: 'The zucchini gratin of Bob uses saffron and hazelnuts. Bake it for forty minutes.',
};

let t: TestApp;
let fake: FakeOpenAI;
let owner: { token: string; user: { id: number } };
let bob: { token: string };
/** Built-in models, with the warranty manual. */
let appA: { uuid: string; items: string[] };
/** Bob's application, holding a recipe only Bob's keys may reach. */
let appB: { uuid: string };
let keyA: string;
let keyB: string;

const createKey = async (app: string, json: Record<string, unknown> = {}, token = owner.token) => {
  const res = await t.call('POST', `/api/applications/${app}/api-keys/`, {
    token,
    json: { name: 'Test', ...json },
  });
  expect(res.status).toBe(201);
  return res.body as { key: string; uuid: string };
};
const client = (apiKey: string, options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
  new OpenAI({ apiKey, baseURL: `${t.url}/api/v1`, maxRetries: 0, ...options });
/** A raw call of the public API (no client library), for what clients cannot send. */
const v1 = (method: string, path: string, key: string | undefined, body?: unknown, raw?: string) =>
  t.call(method, `/api/v1${path}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(raw !== undefined ? { raw } : body !== undefined ? { json: body } : {}),
  });
const ask = (question: string, extra: Record<string, unknown> = {}) => ({
  model: appA.uuid,
  messages: [{ role: 'user' as const, content: question }],
  ...extra,
});
const chatroomsOf = (app: string) => conversationsOf(t, app);

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: PROVIDER_KEY });
  t = await startTestApp({}, { answer: { providerIdleTimeoutMs: 4000 } });
  owner = await t.signUp();
  bob = await t.signUp();
  appA = await applicationWith(t, owner.token, [WARRANTY]);
  appB = await applicationWith(t, bob.token, [SECRET_RECIPE]);
  keyA = (await createKey(appA.uuid)).key;
  keyB = (await createKey(appB.uuid, {}, bob.token)).key;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.set({ apiKey: PROVIDER_KEY, reply: 'Fake answer [1].', failWith: undefined, chunkDelayMs: 0 });
  fake.requests.length = 0;
});

describe('GET /api/v1/models', () => {
  it("lists the key's application as the one model", async () => {
    const models = await client(keyA).models.list();
    expect(models.data).toEqual([
      { id: appA.uuid, object: 'model', created: expect.any(Number), owned_by: 'cairn' },
    ]);
    expect((await client(keyA).models.retrieve(appA.uuid)).id).toBe(appA.uuid);
    await expect(client(keyA).models.retrieve(appB.uuid)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('POST /api/v1/chat/completions with the built-in models', () => {
  it('answers from the knowledge with citations, sources, honest usage and a stored api conversation', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { data, response } = await client(keyA)
      .chat.completions.create(ask('How long is the warranty of the X200?'))
      .withResponse();
    const content = data.choices[0]!.message.content!;
    expect(content).toContain('three-year warranty');
    expect(content).toContain('[1]');
    expect(data).toMatchObject({
      object: 'chat.completion',
      model: appA.uuid,
      choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop' }],
    });
    expect(data.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(data.created).toBeGreaterThanOrEqual(before);
    expect(data.created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(data.usage!.completion_tokens).toBe(countTokens(content));
    expect(data.usage!.prompt_tokens).toBeGreaterThan(countTokens('How long is the warranty of the X200?'));
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
    const extra = data as unknown as {
      sources: Array<{ index: number; item_uuid: string }>;
      conversation_id: string;
    };
    expect(extra.sources).toEqual([expect.objectContaining({ index: 1, item_uuid: appA.items[0] })]);
    expect(response.headers.get('x-cairn-conversation-id')).toBe(extra.conversation_id);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('60');
    expect(Number(response.headers.get('x-ratelimit-remaining-requests'))).toBeLessThan(60);
    expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+s$/);

    // The owner sees the conversation, marked as coming from the API, with both messages.
    const rooms = await chatroomsOf(appA.uuid);
    expect(rooms[0]).toMatchObject({ uuid: extra.conversation_id, source: 'api' });
    const stored = await t.call(
      'GET',
      `/api/applications/${appA.uuid}/chatrooms/${extra.conversation_id}/messages/`,
      {
        token: owner.token,
      },
    );
    expect(stored.body.messages.map((m: { message: string }) => m.message)).toEqual([
      'How long is the warranty of the X200?',
      content,
    ]);
    expect(stored.body.messages[0].sender_identifier).toMatch(/^api_[0-9a-f-]{36}$/);
  });

  it('streams chat.completion.chunk events: role first, finish_reason and sources last, usage, [DONE]', async () => {
    const stream = await client(keyA).chat.completions.create({
      ...ask('How long is the warranty of the X200?'),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: Array<Record<string, unknown> & OpenAI.ChatCompletionChunk> = [];
    for await (const chunk of stream) chunks.push(chunk as (typeof chunks)[number]);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(new Set(chunks.map((c) => c.created)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === appA.uuid)).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    // How many content chunks carry it depends on timing: deltas coalesce while one is published.
    expect(text).toContain('three-year warranty');
    const finish = chunks.filter((c) => c.choices[0]?.finish_reason);
    expect(finish).toHaveLength(1);
    expect(finish[0]!.choices[0]!.finish_reason).toBe('stop');
    expect(finish[0]!.sources).toEqual([expect.objectContaining({ index: 1, item_uuid: appA.items[0] })]);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({
      prompt_tokens: expect.any(Number),
      completion_tokens: countTokens(text),
      total_tokens: expect.any(Number),
    });
    // Every chunk keeps a `choices` array (standard clients index into it); the raw stream ends in [DONE].
    expect(chunks.every((c) => Array.isArray(c.choices))).toBe(true);
    const raw = await v1('POST', '/chat/completions', keyA, ask('warranty of the X200?', { stream: true }));
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    // Written by hand (the reply is taken over from Fastify): the headers set before are all there.
    expect(raw.headers.get('x-cairn-conversation-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(raw.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(raw.headers.get('x-ratelimit-limit-requests')).toBe('60');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('cache-control')).toBe('no-cache');
    expect(String(raw.body).trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it("works with the client's .stream() helper, which checks the role and finish reason", async () => {
    const runner = client(keyA).chat.completions.stream(ask('Are batteries covered by the warranty?'));
    const deltas: string[] = [];
    runner.on('content', (delta) => deltas.push(delta));
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]!.message.content).toContain('Batteries are covered for one year');
    expect(final.choices[0]!.finish_reason).toBe('stop');
    expect(deltas.join('')).toBe(final.choices[0]!.message.content);
  });

  it('says the knowledge does not cover a question, with no sources', async () => {
    const data = await client(keyA).chat.completions.create(ask('What is the capital of Mongolia?'));
    expect(data.choices[0]!.message.content).toBe(NOT_COVERED_ANSWER);
    expect((data as unknown as { sources: unknown[] }).sources).toEqual([]);
  });

  it('honours max_tokens for the built-in answerer (finish_reason length)', async () => {
    const data = await client(keyA).chat.completions.create(
      ask('How long is the warranty of the X200?', { max_tokens: 5 }),
    );
    expect(data.choices[0]!.finish_reason).toBe('length');
    expect(countTokens(data.choices[0]!.message.content!)).toBeLessThanOrEqual(5);
    expect(data.usage!.completion_tokens).toBeLessThanOrEqual(5);
  });

  it("never reaches another application's knowledge or conversations", async () => {
    const data = await client(keyA).chat.completions.create(ask('What does the zucchini gratin of Bob use?'));
    expect(data.choices[0]!.message.content).not.toMatch(/saffron|hazelnut/i);
    await expect(
      client(keyA).chat.completions.create({ ...ask('zucchini gratin?'), model: appB.uuid }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const bobRoom = (await client(keyB).chat.completions.create({
      model: appB.uuid,
      messages: [{ role: 'user', content: 'What does the zucchini gratin of Bob use?' }],
    })) as unknown as { conversation_id: string; choices: Array<{ message: { content: string } }> };
    expect(bobRoom.choices[0]!.message.content).toContain('saffron');
    const stolen = await v1('POST', '/chat/completions', keyA, {
      ...ask('continue'),
      conversation_id: bobRoom.conversation_id,
    });
    expect(stolen.status).toBe(404);
    expect(stolen.body.error).toMatchObject({ code: 'conversation_not_found', param: 'conversation_id' });
    expect((await chatroomsOf(appA.uuid)).map((r) => r.uuid)).not.toContain(bobRoom.conversation_id);
  });

  it('is reached by the AI SDK through its OpenAI-compatible provider', async () => {
    const cairn = createOpenAICompatible({
      name: 'cairn',
      baseURL: `${t.url}/api/v1`,
      apiKey: keyA,
      includeUsage: true,
    });
    const whole = await generateText({
      model: cairn.chatModel(appA.uuid),
      prompt: 'How long is the warranty of the X200?',
    });
    expect(whole.text).toContain('three-year warranty');
    expect(whole.usage.outputTokens).toBe(countTokens(whole.text));
    const streamed = streamText({ model: cairn.chatModel(appA.uuid), prompt: 'Are batteries covered?' });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toContain('Batteries are covered');
    expect(await streamed.finishReason).toBe('stop');
    expect((await streamed.usage).outputTokens).toBe(countTokens(text));
  });
});

describe('POST /api/v1/chat/completions with a provider model', () => {
  let appP: string;
  let keyP: string;
  beforeAll(async () => {
    appP = (await applicationWith(t, owner.token, [WARRANTY])).uuid;
    await useProviderModel(t, owner.token, appP, { baseUrl: fake.url, key: PROVIDER_KEY });
    await t.call('PATCH', `/api/applications/${appP}/`, {
      token: owner.token,
      json: { instructions: 'Always answer politely.' },
    });
    keyP = (await createKey(appP)).key;
  });

  it("passes history, system text (added to the instructions), temperature and max_tokens; reports the provider's usage", async () => {
    fake.set({ reply: 'It lasts three years [1].' });
    const data = await client(keyP).chat.completions.create({
      model: appP,
      messages: [
        { role: 'system', content: 'Reply in English.' },
        { role: 'user', content: 'Hello, I bought an X200.' },
        { role: 'assistant', content: 'Nice! How can I help?' },
        { role: 'user', content: 'How long is its warranty?' },
      ],
      temperature: 0.7,
      max_tokens: 50,
    });
    expect(data.choices[0]!.message.content).toBe('It lasts three years [1].');
    expect(data.usage).toEqual({ prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 });
    const sent = fake.requests.find((r) => r.path === '/chat/completions')!.body as {
      messages: Array<{ role: string; content: string }>;
      temperature: number;
      max_tokens: number;
    };
    expect(sent.temperature).toBe(0.7);
    expect(sent.max_tokens).toBe(50);
    const system = sent.messages.find((m) => m.role === 'system')!.content;
    expect(system).toContain('Always answer politely.');
    expect(system).toContain('Reply in English.');
    expect(system).toContain('three-year warranty');
    expect(sent.messages.filter((m) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'Hello, I bought an X200.' },
      { role: 'assistant', content: 'Nice! How can I help?' },
      { role: 'user', content: 'How long is its warranty?' },
    ]);
  });

  it("streams the provider's text piece by piece as it arrives", async () => {
    fake.set({ reply: 'It lasts three years [1].', chunkDelayMs: 150 });
    const stream = await client(keyP).chat.completions.create({
      model: appP,
      messages: [{ role: 'user', content: 'How long is the X200 warranty?' }],
      stream: true,
    });
    const pieces: string[] = [];
    for await (const chunk of stream)
      if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
    fake.set({ chunkDelayMs: 0 });
    expect(pieces.join('')).toBe('It lasts three years [1].');
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('continues a stored conversation from its conversation_id without the history being resent', async () => {
    fake.set({ reply: 'Three years [1].' });
    const first = (await client(keyP).chat.completions.create({
      model: appP,
      messages: [{ role: 'user', content: 'How long is the X200 warranty?' }],
    })) as unknown as { conversation_id: string };
    fake.set({ reply: 'Yes, register within 30 days [1].' });
    fake.requests.length = 0;
    const second = (await client(keyP).chat.completions.create({
      model: appP,
      messages: [{ role: 'user', content: 'Do I need to register it?' }],
      // @ts-expect-error Cairn's own field, sent through as any extra body field is.
      conversation_id: first.conversation_id,
    })) as unknown as { conversation_id: string };
    expect(second.conversation_id).toBe(first.conversation_id);
    const sent = fake.requests.find((r) => r.path === '/chat/completions')!.body as {
      messages: Array<{ role: string; content: string }>;
    };
    expect(sent.messages.filter((m) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'How long is the X200 warranty?' },
      { role: 'assistant', content: 'Three years [1].' },
      { role: 'user', content: 'Do I need to register it?' },
    ]);
    const rooms = await chatroomsOf(appP);
    expect(rooms.filter((r) => r.uuid === first.conversation_id)).toHaveLength(1);
  });

  it('refuses (409, not retried, nothing stored) a conversation its owner took over, streamed or not', async () => {
    fake.set({ reply: 'Three years [1].' });
    const first = (await client(keyP).chat.completions.create({
      model: appP,
      messages: [{ role: 'user', content: 'How long is the X200 warranty?' }],
    })) as unknown as { conversation_id: string };
    const room = `/api/applications/${appP}/chatrooms/${first.conversation_id}/`;
    const takeover = await t.call('PATCH', room, { token: owner.token, json: { handled_by: 'human' } });
    expect(takeover.status).toBe(200);
    const storedMessages = async () =>
      (await t.call('GET', `${room}messages/`, { token: owner.token })).body.messages.length as number;
    const before = await storedMessages();
    const again = {
      model: appP,
      messages: [{ role: 'user' as const, content: 'Do I need to register it?' }],
      conversation_id: first.conversation_id,
    };

    const error = await client(keyP, { maxRetries: 2 })
      .chat.completions.create(again)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.ConflictError);
    const conflict = error as InstanceType<typeof OpenAI.ConflictError>;
    expect(conflict.headers?.get('x-should-retry')).toBe('false');
    expect(conflict.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'conversation_handled_by_human',
      param: 'conversation_id',
    });
    expect(conflict.message).toMatch(/A person handles this conversation/);
    const streamed = await v1('POST', '/chat/completions', keyP, { ...again, stream: true });
    expect(streamed.status).toBe(409);
    expect(streamed.headers.get('x-should-retry')).toBe('false');
    expect(streamed.body.error.code).toBe('conversation_handled_by_human');
    expect(await storedMessages()).toBe(before);
    expect(fake.requests.filter((r) => r.path === '/chat/completions')).toHaveLength(1);

    // Handed back, the conversation is answered again.
    await t.call('PATCH', room, { token: owner.token, json: { handled_by: 'assistant' } });
    const answered = await client(keyP).chat.completions.create(again);
    expect(answered.choices[0]!.message.content).toBe('Three years [1].');
  });

  it('turns a provider that refuses its key into a 502 the client does not retry', async () => {
    fake.set({ apiKey: 'another-key' });
    const roomsBefore = (await chatroomsOf(appP)).length;
    const error = await client(keyP, { maxRetries: 2 })
      .chat.completions.create({ model: appP, messages: [{ role: 'user', content: 'Warranty?' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(502);
    expect(apiError.headers?.get('x-should-retry')).toBe('false');
    expect(apiError.message).toMatch(/could not answer/);
    // The client obeyed x-should-retry: one call, one stored conversation.
    expect((await chatroomsOf(appP)).length).toBe(roomsBefore + 1);
  });

  it('turns an overloaded provider into a 503 that may be retried', async () => {
    fake.set({ failWith: { status: 429, message: 'Slow down' } });
    const res = await v1('POST', '/chat/completions', keyP, {
      model: appP,
      messages: [{ role: 'user', content: 'Warranty?' }],
      stream: true,
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-should-retry')).toBe('true');
    expect(res.body.error).toMatchObject({ type: 'api_error', code: 'rate_limited' });
  });
});

describe('authentication and errors', () => {
  it('refuses missing, malformed, mistyped, unknown, revoked and expired keys and session tokens (401)', async () => {
    const revoked = await createKey(appA.uuid, { name: 'Revoked' });
    expect((await client(revoked.key).models.list()).data).toHaveLength(1);
    await t.call('DELETE', `/api/applications/${appA.uuid}/api-keys/${revoked.uuid}/`, {
      token: owner.token,
    });

    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const expiring = await createKey(appA.uuid, { expires_at: expiresAt });
    // Until the key has expired by the database's clock, the one that checks it.
    await waitFor(
      async () =>
        (await t.database.query<{ past: boolean }>('SELECT now() > $1::timestamptz AS past', [expiresAt]))
          .rows[0]!.past,
      { what: 'the key to expire' },
    );

    const typo = `${keyA.slice(0, 12)}${keyA[12] === 'x' ? 'y' : 'x'}${keyA.slice(13)}`;
    for (const [key, message] of [
      [typo, /checksum/],
      [revoked.key, /deleted/],
      [expiring.key, /expired/],
      [owner.token, /session tokens are not/],
      ['cairn_short', /checksum/],
    ] as const) {
      const error = await client(key)
        .models.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as Error).message).toMatch(message);
    }
    const none = await v1('GET', '/models', undefined);
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_api_key',
      param: null,
    });
    const tokenScheme = await t.call('GET', '/api/v1/models', { token: owner.token });
    expect(tokenScheme.status).toBe(401);
  });

  it("reports the address's bad-key budget in x-ratelimit-* on a refused key", async () => {
    const remaining = async (key: string | undefined) => {
      const res = await v1('GET', '/models', key);
      expect(res.status).toBe(401);
      expect(res.headers.get('x-ratelimit-limit-requests')).toBe(String(BAD_KEYS_PER_MINUTE));
      expect(res.headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+s$/);
      return Number(res.headers.get('x-ratelimit-remaining-requests'));
    };
    const first = await remaining(undefined);
    expect(first).toBeLessThan(BAD_KEYS_PER_MINUTE);
    // In the same minute, every failed check spends one (a new minute starts the budget again).
    expect([first - 1, BAD_KEYS_PER_MINUTE - 1]).toContain(await remaining(`cairn_${'x'.repeat(38)}`));
  });

  it('refuses an API key on owner endpoints and the socket', async () => {
    for (const scheme of ['Bearer', 'Token']) {
      const res = await t.call('GET', '/api/applications/', {
        headers: { authorization: `${scheme} ${keyA}` },
      });
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/only on the OpenAI-compatible API/);
    }
  });

  it.each([
    ['empty messages', { messages: [] }, 'messages'],
    ['messages not a list', { messages: 'hello' }, 'messages'],
    ['a message without content type', { messages: [{ role: 'user', content: 42 }] }, 'messages[0].content'],
    [
      'last message not from the user',
      {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
      },
      'messages[1].role',
    ],
    [
      'an unknown role',
      {
        messages: [
          { role: 'tool', content: 'x' },
          { role: 'user', content: 'Hi' },
        ],
      },
      'messages[0].role',
    ],
    [
      'an image part',
      { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] },
      'messages[0].content[0].type',
    ],
    ['an empty question', { messages: [{ role: 'user', content: '  \u0000 ' }] }, 'messages[0].content'],
    [
      'a question over 8,000 characters',
      { messages: [{ role: 'user', content: 'x'.repeat(8001) }] },
      'messages[0].content',
    ],
    ['temperature as text', { temperature: 'hot' }, 'temperature'],
    ['temperature over 2', { temperature: 3 }, 'temperature'],
    ['max_tokens 0', { max_tokens: 0 }, 'max_tokens'],
    ['n 2', { n: 2 }, 'n'],
    ['tools', { tools: [{ type: 'function', function: { name: 'lookup' } }] }, 'tools'],
    ['tool_choice required', { tool_choice: 'required' }, 'tool_choice'],
    ['a forced tool', { tool_choice: { type: 'function', function: { name: 'lookup' } } }, 'tool_choice'],
    ['legacy functions', { functions: [{ name: 'lookup' }] }, 'functions'],
    ['a forced legacy function', { function_call: { name: 'lookup' } }, 'function_call'],
    ['a JSON response format', { response_format: { type: 'json_object' } }, 'response_format.type'],
    [
      'a JSON schema response format',
      { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } } },
      'response_format.type',
    ],
    ['stream as text', { stream: 'yes' }, 'stream'],
    ['a forged conversation id', { conversation_id: 'not-a-uuid' }, 'conversation_id'],
    ['no model', { model: undefined }, 'model'],
  ])('answers 400 in the OpenAI shape for %s', async (_name, patch, param) => {
    const res = await v1('POST', '/chat/completions', keyA, { ...ask('Warranty?'), ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(res.body.error.message.length).toBeGreaterThan(10);
    expect(res.headers.get('x-should-retry')).toBe('false');
  });

  it('accepts and ignores the harmless fields clients send', async () => {
    const data = await client(keyA).chat.completions.create(
      ask('How long is the warranty of the X200?', {
        user: 'user-1234',
        n: 1,
        seed: 7,
        top_p: 1,
        presence_penalty: 0,
        frequency_penalty: 0,
        logprobs: false,
        parallel_tool_calls: false,
        tools: [],
        tool_choice: 'none',
        response_format: { type: 'text' },
        stream_options: null,
        stop: null,
        metadata: { team: 'support' },
        store: false,
      }),
    );
    expect(data.choices[0]!.message.content).toContain('three-year warranty');
  });

  it('refuses what is not a JSON request, huge bodies and unknown paths in the OpenAI shape', async () => {
    const malformed = await v1('POST', '/chat/completions', keyA, undefined, '{"model":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/not valid JSON/);
    const huge = await v1('POST', '/chat/completions', keyA, ask('y'.repeat(1_100_000)));
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('request_too_large');
    const unknown = await v1('POST', '/completions', keyA, { model: appA.uuid, prompt: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_url');
  });

  it('keeps NUL characters out of stored text and answers the rest of the question', async () => {
    const data = await client(keyA).chat.completions.create(
      ask('How long is the \u0000warranty of the X200?'),
    );
    expect(data.choices[0]!.message.content).toContain('three-year warranty');
  });

  it('takes half of a surrogate pair ("\\ud800") in any text as U+FFFD: no 500, the question answered', async () => {
    const lone = '\ud800';
    const history = [
      { role: 'user' as const, content: `Earlier ${lone} question` },
      { role: 'assistant' as const, content: `Earlier ${lone} answer` },
    ];
    const completion = await v1('POST', '/chat/completions', keyA, {
      model: appA.uuid,
      messages: [
        { role: 'system', content: `Be brief ${lone}` },
        ...history,
        { role: 'user', content: [{ type: 'text', text: `How long is the ${lone}warranty of the X200?` }] },
      ],
    });
    expect(completion.status).toBe(200);
    expect(completion.body.choices[0].message.content).toContain('three-year warranty');
    const response = await v1('POST', '/responses', keyA, {
      model: appA.uuid,
      instructions: `Be brief ${lone}`,
      input: [...history, { role: 'user', content: `How long is the ${lone}warranty of the X200?` }],
    });
    expect(response.status).toBe(200);
    expect(response.body.instructions).toBe('Be brief \ufffd');
    expect(response.body.output_text).toContain('three-year warranty');
  });

  it('limits requests per key per minute (429 with retry-after), counted in the database', async () => {
    const slow = await createKey(appA.uuid, { requests_per_minute: 2 });
    await client(slow.key).models.list();
    await client(slow.key).models.list();
    const error = await client(slow.key)
      .models.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const limited = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(Number(limited.headers?.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(limited.headers?.get('x-should-retry')).toBe('true');
    const { rows } = await t.database.query<{ count: number }>(
      `SELECT sum(count)::int AS count FROM rate_limit_hits WHERE key LIKE 'v1-key:%'`,
    );
    expect(Number(rows[0]!.count)).toBeGreaterThanOrEqual(3);
    // Other keys keep their own budget.
    expect((await client(keyA).models.list()).data).toHaveLength(1);
  });

  // Last: it blocks this test's address for the rest of the minute.
  it('throttles an address that keeps sending bad keys, even once it sends a good one', async () => {
    let last: Awaited<ReturnType<typeof v1>> | undefined;
    for (let i = 0; i <= BAD_KEYS_PER_MINUTE; i++) {
      last = await v1('GET', '/models', `cairn_${'x'.repeat(38)}`);
    }
    expect(last!.status).toBe(429);
    const good = await v1('GET', '/models', keyA);
    expect(good.status).toBe(429);
    expect(good.body.error.code).toBe('too_many_invalid_keys');
    for (const refused of [last!, good]) {
      expect(refused.headers.get('x-ratelimit-limit-requests')).toBe(String(BAD_KEYS_PER_MINUTE));
      expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(refused.headers.get('x-ratelimit-reset-requests')).toBe(
        `${refused.headers.get('retry-after')}s`,
      );
    }
  });
});
