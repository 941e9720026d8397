import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { ASSISTANT_SENDER } from '@cairn/contracts/chat';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANSWER_PHASES_CHANNEL, type AnswerPhaseMark } from '../../../lib/answer-phases.ts';
import {
  applicationWith as fixtureApplication,
  useProviderModel as fixtureProviderModel,
} from '../../../testing/chat-fixtures.ts';
import { openChatSocket } from '../../../testing/chat-socket.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { waitFor } from '../../../testing/wait-for.ts';
import { NOT_COVERED_ANSWER } from './no-answer.ts';

const KEY = 'sk-test-key-1234';
const FULL_REPLY = 'The X200 comes with a three-year warranty [1]. Batteries are covered for one year [2].';

let t: TestApp;
let fake: FakeOpenAI;
let owner: { token: string; user: { id: number } };

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: KEY, models: ['fake-chat', 'fake-embed'] });
  t = await startTestApp({}, { answer: { providerIdleTimeoutMs: 4000 } });
  owner = await t.signUp();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.set({ apiKey: KEY, reply: FULL_REPLY, chunkDelayMs: 0, headersDelayMs: 0, failWith: undefined });
  fake.requests.length = 0;
});

const api = (method: string, path: string, json?: unknown) =>
  t.call(method, path, { token: owner.token, json });

const applicationWith = (docs: Array<{ title: string; text: string }>) =>
  fixtureApplication(t, owner.token, docs);
const useProviderModel = (appUuid: string, opts: { key?: string; model?: string; baseUrl?: string } = {}) =>
  fixtureProviderModel(t, owner.token, appUuid, {
    ...opts,
    baseUrl: opts.baseUrl ?? fake.url,
    key: opts.key ?? KEY,
  });

async function ask(appUuid: string, message: string, chatroom = 'new_chat') {
  const res = await api('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
    chatroom_identifier: chatroom,
    message,
    sender_identifier: `reg_${owner.user.id}`,
    metadata: { source: 'web' },
    send_to_user: false,
  });
  expect(res.status).toBe(201);
  return res.body as { chatroom: { uuid: string }; message: { uuid: string }; answer: { uuid: string } };
}

const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.\n\n# Batteries\n\nBatteries are covered for one year from the date of purchase.',
};
const RECIPES = {
  title: 'Cookbook',
  text: 'Pancakes need flour, eggs and milk. Whisk them and fry in butter.',
};

describe('built-in extractive answerer', () => {
  it('quotes the best passages with inline citations and lists only the cited sources', async () => {
    const app = await applicationWith([WARRANTY, RECIPES]);
    const tab = await openChatSocket(t.url, owner.token);
    const sent = await ask(app.uuid, 'How long is the warranty of the X200?');
    const answer = await tab.finalOf(sent.answer.uuid);
    expect(answer.status).toBe('complete');
    expect(answer.message).toContain('three-year warranty');
    expect(answer.message).toContain('[1]');
    expect(answer.message).not.toContain('Pancakes');
    // No model was called and no client asked for usage: none is reported (never a made-up count).
    expect(answer.metadata.usage).toBeUndefined();
    const sources = answer.metadata.sources as Array<Record<string, unknown>>;
    expect(sources.length).toBeGreaterThanOrEqual(1);
    expect(sources[0]).toMatchObject({ index: 1, item_uuid: app.items[0], item_title: 'X200 manual' });
    expect(sources[0]!.snippet).toContain('three-year warranty');
    expect(sources.every((s) => s.item_uuid === app.items[0])).toBe(true);
    expect(answer.metadata).toMatchObject({ model: { provider: 'builtin' }, latency_ms: expect.any(Number) });
    // Streamed as deltas (however many: deltas coalesce while a publish is in flight).
    expect(tab.events.some((e) => e.kind === 'delta' && e.message_uuid === answer.uuid)).toBe(true);
    expect(tab.streamedText(answer.uuid)).toBe(answer.message);
    tab.close();
  });

  it("ends an answer only once its own durable events are delivered (log, analytics, webhooks' queue)", async () => {
    const app = await applicationWith([WARRANTY]);
    // A slow subscriber of the answer's `message.created`: its work must be done when the answer is seen to end.
    const handled = new Set<string>();
    t.app.events.onDurable('message.created', async ({ application, message }) => {
      if (application.uuid !== app.uuid || message.senderIdentifier !== ASSISTANT_SENDER) return;
      await new Promise((resolve) => setTimeout(resolve, 300));
      handled.add(message.uuid);
    });
    const tab = await openChatSocket(t.url, owner.token);
    const sent = await ask(app.uuid, 'How long is the warranty of the X200?');
    const answer = await tab.finalOf(sent.answer.uuid);
    expect(answer.status).toBe('complete');
    expect(handled.has(sent.answer.uuid)).toBe(true);
    tab.close();
  });

  it('says the knowledge does not cover a question it has nothing on', async () => {
    const app = await applicationWith([WARRANTY]);
    const tab = await openChatSocket(t.url, owner.token);
    const sent = await ask(app.uuid, 'Which telescope should an astronomer buy?');
    const answer = await tab.finalOf(sent.answer.uuid);
    expect(answer).toMatchObject({ status: 'complete', message: NOT_COVERED_ANSWER });
    expect(answer.metadata.sources).toEqual([]);
    tab.close();
  });
});

describe('OpenAI-compatible provider (local wire-format server)', () => {
  it('streams the answer with the passages, settings and history in the prompt', async () => {
    const app = await applicationWith([WARRANTY, RECIPES]);
    await useProviderModel(app.uuid);
    await api('PATCH', `/api/applications/${app.uuid}/`, {
      instructions: 'Answer like a pirate.',
      temperature: 0.7,
    });
    const tab = await openChatSocket(t.url, owner.token);
    const first = await ask(app.uuid, 'What does the warranty of the X200 cover?');
    const answer = await tab.finalOf(first.answer.uuid);
    expect(answer.status).toBe('complete');
    expect(answer.message).toBe(FULL_REPLY);
    expect(tab.streamedText(answer.uuid)).toBe(FULL_REPLY);
    expect(answer.metadata).toMatchObject({
      model: { provider: 'openai_compatible', name: 'fake-chat' },
      usage: { input_tokens: 11, output_tokens: expect.any(Number) },
      latency_ms: expect.any(Number),
      first_token_ms: expect.any(Number),
    });
    // Only cited passages are listed, each with the number it is cited by.
    const sources = answer.metadata.sources as Array<{ index: number; item_title: string }>;
    expect(sources.map((s) => s.index)).toEqual([1, 2]);

    const call = fake.requests.find((r) => r.path === '/chat/completions')!.body as {
      temperature: number;
      stream: boolean;
      messages: Array<{ role: string; content: string }>;
    };
    expect(call.stream).toBe(true);
    expect(call.temperature).toBeCloseTo(0.7);
    const system = call.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Answer like a pirate.');
    expect(system.content).toContain('[1] X200 manual');
    expect(system.content).toContain('three-year warranty');
    expect(call.messages.at(-1)).toEqual({
      role: 'user',
      content: 'What does the warranty of the X200 cover?',
    });

    // A message the owner sent to the end user is not a turn of the conversation with the model.
    const note = await api('POST', `/api/applications/${app.uuid}/chatrooms/send-message/`, {
      chatroom_identifier: first.chatroom.uuid,
      message: 'A note for the visitor',
      sender_identifier: `reg_${owner.user.id}`,
      metadata: { source: 'web' },
      send_to_user: true,
    });
    expect(note.status).toBe(201);

    fake.requests.length = 0;
    fake.set({ reply: 'Only the first one [1].' });
    const second = await ask(app.uuid, 'And the batteries?', first.chatroom.uuid);
    const next = await tab.finalOf(second.answer.uuid);
    expect((next.metadata.sources as unknown[]).length).toBe(1);
    const followUp = fake.requests.find((r) => r.path === '/chat/completions')!.body as {
      messages: Array<{ role: string; content: string }>;
    };
    expect(followUp.messages.slice(1)).toEqual([
      { role: 'user', content: 'What does the warranty of the X200 cover?' },
      { role: 'assistant', content: FULL_REPLY },
      { role: 'user', content: 'And the batteries?' },
    ]);
    tab.close();
  });

  it("publishes an answer's steps to its first delta, in order, for the benchmarks' split", async () => {
    const app = await applicationWith([WARRANTY]);
    await useProviderModel(app.uuid);
    const marks: AnswerPhaseMark[] = [];
    const listen = (message: unknown) => marks.push(message as AnswerPhaseMark);
    subscribe(ANSWER_PHASES_CHANNEL, listen);
    try {
      const tab = await openChatSocket(t.url, owner.token);
      const sent = await ask(app.uuid, 'What does the warranty of the X200 cover?');
      await tab.finalOf(sent.answer.uuid);
      tab.close();
      const own = marks.filter((m) => m.answer === sent.answer.uuid);
      expect(own.map((m) => m.phase)).toEqual([
        'stored',
        'started',
        'searched',
        'model-called',
        'first-text',
        'published',
      ]);
      expect(own.every((m, i) => i === 0 || m.at >= own[i - 1]!.at)).toBe(true);
    } finally {
      unsubscribe(ANSWER_PHASES_CHANNEL, listen);
    }
  });

  it('in strict mode answers "not covered" without calling the model when nothing is retrieved', async () => {
    const app = await applicationWith([]);
    await useProviderModel(app.uuid);
    const tab = await openChatSocket(t.url, owner.token);
    const sent = await ask(app.uuid, 'Anything at all?');
    const answer = await tab.finalOf(sent.answer.uuid);
    expect(answer).toMatchObject({ status: 'complete', message: NOT_COVERED_ANSWER });
    expect(fake.requests.filter((r) => r.path === '/chat/completions')).toEqual([]);
    tab.close();
  });

  const failures: Array<[string, () => void, Parameters<typeof useProviderModel>[1], RegExp, string]> = [
    ['a bad key', () => {}, { key: 'sk-wrong-key' }, /rejected the API key \(401\)/, 'auth'],
    [
      'a rate limit',
      () => fake.set({ failWith: { status: 429, message: 'Rate limit reached' } }),
      {},
      /rate limiting requests \(429\)/,
      'rate_limited',
    ],
    [
      'an unknown model',
      () => {},
      { model: 'no-such-model' },
      /"no-such-model" was not found/,
      'model_not_found',
    ],
    [
      'a provider that never answers',
      () => fake.set({ headersDelayMs: 8000 }),
      {},
      /did not answer/,
      'timeout',
    ],
    // A closed port is told like every other way of not reaching a provider (decision 056).
    [
      'an unreachable provider',
      () => {},
      { baseUrl: 'http://127.0.0.1:9/v1' },
      /^Could not reach the model provider ".*" at http:\/\/127\.0\.0\.1:9\/v1\. Check that it is running/,
      'unreachable',
    ],
  ];
  for (const [name, arrange, model, error, kind] of failures) {
    it(`ends with a clear error on ${name}, stored on the message and sent as an event`, async () => {
      const app = await applicationWith([WARRANTY]);
      await useProviderModel(app.uuid, model);
      arrange();
      const tab = await openChatSocket(t.url, owner.token);
      const sent = await ask(app.uuid, 'What does the warranty cover?');
      const answer = await tab.finalOf(sent.answer.uuid, 15_000);
      expect(answer.status).toBe('failed');
      expect(answer.metadata.error).toMatch(error);
      expect(answer.metadata.error_kind).toMatch(new RegExp(`^(${kind})$`));
      const stored = await api(
        'GET',
        `/api/applications/${app.uuid}/chatrooms/${sent.chatroom.uuid}/messages/`,
      );
      expect(stored.body.messages[1]).toMatchObject({
        status: 'failed',
        metadata: { error: answer.metadata.error },
      });
      tab.close();
    });
  }

  it('a slow answer completes, a stalled stream (headers sent, then silence) is cut by the timeout', async () => {
    const app = await applicationWith([WARRANTY]);
    await useProviderModel(app.uuid);
    fake.set({ reply: 'one two three four five', chunkDelayMs: 150 });
    const tab = await openChatSocket(t.url, owner.token);
    const sent = await ask(app.uuid, 'Slowly please: what does the warranty cover?');
    // 150 ms between words is well under the 4 s silence limit: the whole answer arrives.
    const ok = await tab.finalOf(sent.answer.uuid);
    expect(ok).toMatchObject({ status: 'complete', message: 'one two three four five' });

    fake.set({ chunkDelayMs: 6000 });
    const slow = await ask(app.uuid, 'And now very slowly: the warranty?', sent.chatroom.uuid);
    const cut = await tab.finalOf(slow.answer.uuid);
    expect(cut.message).toBe('');
    expect(cut.status).toBe('failed');
    expect(cut.metadata.error_kind).toBe('timeout');
    tab.close();
  });

  it('sends a fast stream in a few deltas, the first word at once, and rebuilds it exactly', async () => {
    const app = await applicationWith([WARRANTY]);
    await useProviderModel(app.uuid);
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
    // A word every 2 ms: about 120 ms of streaming, a delta per word before decision 116.
    fake.set({ reply: words.join(' '), chunkDelayMs: 2 });
    const tab = await openChatSocket(t.url, owner.token);
    const sent = await ask(app.uuid, 'Quickly: what does the warranty cover?');
    const final = await tab.finalOf(sent.answer.uuid);
    expect(final).toMatchObject({ status: 'complete', message: words.join(' ') });
    const deltas = tab.events.filter((e) => e.kind === 'delta' && e.message_uuid === sent.answer.uuid);
    // The first word is not held for the ones after it.
    expect(deltas[0]).toMatchObject({ offset: 0, delta: expect.stringMatching(/^\s*word0\s*$/) });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.length).toBeLessThan(words.length / 2);
    expect(tab.streamedText(sent.answer.uuid)).toBe(words.join(' '));
    tab.close();
  });

  it('stops an answer mid-stream and keeps the text streamed so far', async () => {
    const app = await applicationWith([WARRANTY]);
    await useProviderModel(app.uuid);
    fake.set({ reply: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), chunkDelayMs: 20 });
    const tab = await openChatSocket(t.url, owner.token);
    const sent = await ask(app.uuid, 'Tell me everything about the warranty');
    await waitFor(() => tab.streamedText(sent.answer.uuid).length > 20);
    const stop = await api(
      'POST',
      `/api/applications/${app.uuid}/chatrooms/${sent.chatroom.uuid}/messages/${sent.answer.uuid}/stop/`,
    );
    expect(stop.status).toBe(200);
    expect(stop.body.status).toBe('stopped');
    await waitFor(() =>
      tab.events.some(
        (e) => e.kind === 'updated' && e.message.uuid === sent.answer.uuid && e.message.message !== '',
      ),
    );
    const stored = await api(
      'GET',
      `/api/applications/${app.uuid}/chatrooms/${sent.chatroom.uuid}/messages/`,
    );
    const answer = stored.body.messages[1];
    expect(answer.status).toBe('stopped');
    expect(answer.message.startsWith('word0 word1')).toBe(true);
    expect(answer.message).not.toContain('word199');
    expect(tab.streamedText(sent.answer.uuid).startsWith(answer.message.slice(0, 20))).toBe(true);
    tab.close();
  });
});
