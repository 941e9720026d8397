import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applicationWith, conversationsOf, useProviderModel } from '../../testing/chat-fixtures.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { NOT_COVERED_ANSWER } from '../chatrooms/answer/no-answer.ts';
import { annotationsOf } from './create-response.ts';

const PROVIDER_KEY = 'sk-provider-key-2';
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.\n\n# Batteries\n\nBatteries are covered for one year from the date of purchase.',
};

let t: TestApp;
let fake: FakeOpenAI;
let owner: { token: string };
let bob: { token: string };
let appA: { uuid: string; items: string[] };
let appB: { uuid: string };
let keyA: string;
let keyB: string;

const createKey = async (app: string, token = owner.token) => {
  const res = await t.call('POST', `/api/applications/${app}/api-keys/`, {
    token,
    json: { name: 'Responses' },
  });
  expect(res.status).toBe(201);
  return (res.body as { key: string }).key;
};
const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${t.url}/api/v1`, maxRetries: 0 });
const raw = (body: unknown, key = keyA) =>
  t.call('POST', '/api/v1/responses', { headers: { authorization: `Bearer ${key}` }, json: body });
/** Cairn's fields beside OpenAI's, which the typed client does not declare. */
type WithCairn = { conversation_id: string; sources: Array<{ index: number; item_uuid: string }> };

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: PROVIDER_KEY });
  t = await startTestApp({}, { answer: { providerIdleTimeoutMs: 4000 } });
  owner = await t.signUp();
  bob = await t.signUp();
  appA = await applicationWith(t, owner.token, [WARRANTY]);
  appB = await applicationWith(t, bob.token, [{ title: 'Recipes', text: 'Bob bakes bread with rye.' }]);
  keyA = await createKey(appA.uuid);
  keyB = await createKey(appB.uuid, bob.token);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.set({ apiKey: PROVIDER_KEY, reply: 'Fake answer [1].', failWith: undefined, chunkDelayMs: 0 });
  fake.requests.length = 0;
});

describe('POST /api/v1/responses with the built-in models', () => {
  it('answers with one message whose output_text carries the citations as annotations, honest usage, a stored api conversation', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { data, response } = await client(keyA)
      .responses.create({ model: appA.uuid, input: 'How long is the warranty of the X200?' })
      .withResponse();
    expect(data).toMatchObject({ object: 'response', status: 'completed', model: appA.uuid, error: null });
    expect(data.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(data.created_at).toBeGreaterThanOrEqual(before);
    expect(data.output).toHaveLength(1);
    const message = data.output[0] as OpenAI.Responses.ResponseOutputMessage;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(message.id).toBe(`msg_${data.id.slice(5)}`);
    const content = message.content[0] as OpenAI.Responses.ResponseOutputText;
    expect(content.type).toBe('output_text');
    expect(content.text).toContain('three-year warranty');
    expect(data.output_text).toBe(content.text);
    const marker = content.text.indexOf('[1]');
    expect(marker).toBeGreaterThanOrEqual(0);
    expect(content.annotations[0]).toEqual({
      type: 'file_citation',
      file_id: appA.items[0],
      filename: 'X200 manual',
      index: marker,
    });
    expect(data.usage!.output_tokens).toBe(countTokens(content.text));
    expect(data.usage!.input_tokens).toBeGreaterThan(countTokens('How long is the warranty of the X200?'));
    expect(data.usage!.total_tokens).toBe(data.usage!.input_tokens + data.usage!.output_tokens);
    const extra = data as unknown as WithCairn;
    expect(extra.sources).toEqual([expect.objectContaining({ index: 1, item_uuid: appA.items[0] })]);
    expect(response.headers.get('x-cairn-conversation-id')).toBe(extra.conversation_id);
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('60');

    const rooms = await conversationsOf(t, appA.uuid);
    expect(rooms.find((r) => r.uuid === extra.conversation_id)).toMatchObject({ source: 'api' });
    // Stored: read back as it was returned.
    expect(await client(keyA).responses.retrieve(data.id)).toEqual(data);
  });

  it('streams the documented events, in order, with sequence numbers, which the stream helper accepts', async () => {
    const stream = await client(keyA).responses.create({
      model: appA.uuid,
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Are batteries covered by the warranty?' }] },
      ],
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    // Runs of deltas and of annotations, each as one.
    const types = events.map((e) => e.type).filter((type, i, all) => type !== all[i - 1]);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.annotation.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const deltas = events.filter((e) => e.type === 'response.output_text.delta');
    expect(deltas.length).toBeGreaterThan(0);
    expect(events.indexOf(deltas[0]!)).toBe(4);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(deltas.map((d) => d.delta).join('')).toBe(completed.response.output_text);
    expect(completed.response.output_text).toContain('Batteries are covered for one year');

    const helper = client(keyA).responses.stream({
      model: appA.uuid,
      input: 'How long is the X200 warranty?',
    });
    const pieces: string[] = [];
    helper.on('response.output_text.delta', (event) => pieces.push(event.delta));
    const final = await helper.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toContain('three-year warranty');
    expect(pieces.join('')).toBe(final.output_text);
    // The stored copy is the streamed one.
    expect((await client(keyA).responses.retrieve(final.id)).output_text).toBe(final.output_text);
  });

  it('continues the stored conversation from previous_response_id; store: false is answered but not kept', async () => {
    const first = await client(keyA).responses.create({
      model: appA.uuid,
      input: 'How long is the X200 warranty?',
    });
    const second = await client(keyA).responses.create({
      model: appA.uuid,
      input: 'Are batteries covered?',
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect((second as unknown as WithCairn).conversation_id).toBe(
      (first as unknown as WithCairn).conversation_id,
    );
    const stored = await t.call(
      'GET',
      `/api/applications/${appA.uuid}/chatrooms/${(first as unknown as WithCairn).conversation_id}/messages/`,
      { token: owner.token },
    );
    expect(stored.body.messages).toHaveLength(4);

    const unstored = await client(keyA).responses.create({
      model: appA.uuid,
      input: 'Warranty?',
      store: false,
    });
    expect((unstored as unknown as { store: boolean }).store).toBe(false);
    await expect(client(keyA).responses.retrieve(unstored.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const res = await raw({ model: appA.uuid, input: 'And then?', previous_response_id: unstored.id });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({
      code: 'previous_response_not_found',
      param: 'previous_response_id',
    });
  });

  it('honours max_output_tokens (status incomplete) and says when the knowledge does not cover a question', async () => {
    const cut = await client(keyA).responses.create({
      model: appA.uuid,
      input: 'How long is the warranty of the X200?',
      max_output_tokens: 5,
    });
    expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(cut.usage!.output_tokens).toBeLessThanOrEqual(5);
    const none = await client(keyA).responses.create({
      model: appA.uuid,
      input: 'What is the capital of Mongolia?',
    });
    expect(none.output_text).toBe(NOT_COVERED_ANSWER);
    expect((none.output[0] as OpenAI.Responses.ResponseOutputMessage).content[0]).toMatchObject({
      annotations: [],
    });
  });

  it("never reaches another application's responses or conversations", async () => {
    const mine = await client(keyA).responses.create({ model: appA.uuid, input: 'Warranty of the X200?' });
    await expect(client(keyB).responses.retrieve(mine.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const res = await raw({ model: appB.uuid, input: 'And?', previous_response_id: mine.id }, keyB);
    expect(res.status).toBe(404);
    await expect(client(keyA).responses.create({ model: appB.uuid, input: 'Bread?' })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
  });
});

describe('POST /api/v1/responses with a provider model', () => {
  let appP: string;
  let keyP: string;
  beforeAll(async () => {
    appP = (await applicationWith(t, owner.token, [WARRANTY])).uuid;
    await useProviderModel(t, owner.token, appP, { baseUrl: fake.url, key: PROVIDER_KEY });
    keyP = await createKey(appP);
  });

  it("passes instructions, history items, temperature and max_output_tokens; reports the provider's usage", async () => {
    fake.set({ reply: 'It lasts three years [1].' });
    const data = await client(keyP).responses.create({
      model: appP,
      instructions: 'Reply in English.',
      input: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Hello, I bought an X200.' },
        {
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Nice! How can I help?', annotations: [] }],
        },
        { type: 'message', role: 'user', content: 'How long is its warranty?' },
      ] as OpenAI.Responses.ResponseInput,
      temperature: 0.7,
      max_output_tokens: 50,
    });
    expect(data.output_text).toBe('It lasts three years [1].');
    expect(data.instructions).toBe('Reply in English.');
    expect(data.usage).toMatchObject({ input_tokens: 11, output_tokens: 5, total_tokens: 16 });
    const sent = fake.requests.find((r) => r.path === '/chat/completions')!.body as {
      messages: Array<{ role: string; content: string }>;
      temperature: number;
      max_tokens: number;
    };
    expect(sent.temperature).toBe(0.7);
    expect(sent.max_tokens).toBe(50);
    const system = sent.messages.find((m) => m.role === 'system')!.content;
    expect(system).toContain('Reply in English.');
    expect(system).toContain('Be brief.');
    expect(sent.messages.filter((m) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'Hello, I bought an X200.' },
      { role: 'assistant', content: 'Nice! How can I help?' },
      { role: 'user', content: 'How long is its warranty?' },
    ]);
  });

  it('streams the provider text as deltas; a failure before any text is an HTTP error, after it response.failed', async () => {
    fake.set({ reply: 'It lasts three years [1].', chunkDelayMs: 100 });
    const helper = client(keyP).responses.stream({ model: appP, input: 'Warranty?' });
    const pieces: string[] = [];
    helper.on('response.output_text.delta', (event) => pieces.push(event.delta));
    expect((await helper.finalResponse()).output_text).toBe('It lasts three years [1].');
    expect(pieces.length).toBeGreaterThan(1);

    fake.set({ failWith: { status: 429, message: 'Slow down' } });
    const res = await raw({ model: appP, input: 'Warranty?', stream: true }, keyP);
    expect(res.status).toBe(503);
    expect(res.headers.get('x-should-retry')).toBe('true');
    expect(res.body.error).toMatchObject({ type: 'api_error', code: 'rate_limited' });
  });
});

describe('POST /api/v1/responses refusals', () => {
  it.each([
    ['tools', { tools: [{ type: 'web_search' }] }],
    ['reasoning', { reasoning: { effort: 'high' } }],
    ['background', { background: true }],
    ['tool_choice', { tool_choice: 'required' }],
  ])('refuses %s with a 400 naming it', async (param, extra) => {
    const error = await client(keyA)
      .responses.create({ model: appA.uuid, input: 'Hi', ...(extra as object) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param, code: 'unsupported_parameter' });
  });

  it('accepts what only tunes or labels a request (empty tools, null reasoning, metadata, text format)', async () => {
    const res = await raw({
      model: appA.uuid,
      input: 'Warranty?',
      tools: [],
      reasoning: null,
      background: false,
      tool_choice: 'auto',
      metadata: { team: 'support' },
      user: 'u-1',
      top_p: 1,
      truncation: 'disabled',
      text: { format: { type: 'text' } },
      parallel_tool_calls: true,
    });
    expect(res.status).toBe(200);
  });

  it.each([
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'x' }] }] },
      'input[0].content[0].type',
    ],
    [{ input: [{ type: 'function_call_output', role: 'user', content: 'x' }] }, 'input[0].type'],
    [
      {
        input: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
      },
      'input[1].role',
    ],
    [{ input: [{ role: 'tool', content: 'Hi' }] }, 'input[0].role'],
    [{ input: '   ' }, 'input[0].content'],
    [{ input: 42 }, 'input'],
    [{ input: [] }, 'input'],
    [{ input: 'Hi', temperature: 3 }, 'temperature'],
    [{ input: 'Hi', max_output_tokens: 0 }, 'max_output_tokens'],
    [{ input: 'Hi', text: { format: { type: 'json_object' } } }, 'text.format.type'],
    [{ input: 'q'.repeat(9000) }, 'input[0].content'],
  ])('refuses bad input (%#) with a 400 naming %s', async (body, param) => {
    const res = await raw({ model: appA.uuid, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('answers an unknown response id with a 404, and refuses a session token', async () => {
    await expect(client(keyA).responses.retrieve('resp_nope')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      client(owner.token).responses.create({ model: appA.uuid, input: 'Hi' }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('citations as annotations', () => {
  it('finds [n] and [n, m] outside code, at their place in the text', () => {
    const sources = [1, 2].map((index) => ({
      index,
      item_uuid: `item-${index}`,
      item_title: `Item ${index}`,
      chunk_id: index,
      page: null,
      heading: null,
      snippet: '',
    }));
    const text = 'A [1]. `x[2]` B [1, 2] [3]';
    expect(annotationsOf(text, sources)).toEqual([
      { type: 'file_citation', file_id: 'item-1', filename: 'Item 1', index: 2 },
      { type: 'file_citation', file_id: 'item-1', filename: 'Item 1', index: 16 },
      { type: 'file_citation', file_id: 'item-2', filename: 'Item 2', index: 16 },
    ]);
  });
});
