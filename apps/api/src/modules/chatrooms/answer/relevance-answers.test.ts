import type { TAttention } from '@cairn/contracts/attention';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith, sendChatMessage, useProviderModel } from '../../../testing/chat-fixtures.ts';
import { openChatSocket } from '../../../testing/chat-socket.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { NOT_COVERED_ANSWERS } from './no-answer.ts';

const KEY = 'sk-test-key-relevance';
const SHOP = 'https://shop.example.com';
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.\n\n# Batteries\n\nBatteries are covered for one year from the date of purchase.',
};
const HOURS = {
  title: 'Opening hours',
  text: 'The shop opens at 9:00 from Monday to Friday and at 10:00 on Saturdays. It is closed on Sundays.',
};
const OWNER_WORDS = 'Please ask our front desk about that.';

let t: TestApp;
let fake: FakeOpenAI;
let owner: { token: string; user: { id: number } };
let tab: Awaited<ReturnType<typeof openChatSocket>>;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: KEY, models: ['fake-chat'] });
  fake.set({ apiKey: KEY, reply: 'Three years [1].', chunkDelayMs: 0, headersDelayMs: 0 });
  t = await startTestApp();
  owner = await t.signUp();
  tab = await openChatSocket(t.url, owner.token);
});
afterAll(async () => {
  tab.close();
  await t.close();
  await fake.close();
});

const api = (method: string, path: string, json?: unknown) =>
  t.call(method, path, { token: owner.token, json });

async function ask(appUuid: string, message: string) {
  const res = await sendChatMessage(t, owner, appUuid, message);
  expect(res.status).toBe(201);
  return tab.finalOf(res.body.answer.uuid);
}

const modelCalls = () => fake.requests.filter((r) => r.path === '/chat/completions').length;

describe('a strict application with a connected model', () => {
  it('does not call the model for a question the knowledge does not cover, and does for one it covers', async () => {
    const app = await applicationWith(t, owner.token, [WARRANTY, HOURS]);
    await useProviderModel(t, owner.token, app.uuid, { baseUrl: fake.url, key: KEY });
    const before = modelCalls();
    const refused = await ask(app.uuid, 'Which telescope should an astronomer buy for the winter sky?');
    expect(refused).toMatchObject({ status: 'complete', message: NOT_COVERED_ANSWERS.en });
    expect(refused.metadata).toMatchObject({ not_covered: true, relevance: { covered: false } });
    expect(refused.metadata.usage).toBeUndefined();
    expect(modelCalls()).toBe(before);

    const answered = await ask(app.uuid, 'How long is the warranty of the X200?');
    expect(answered).toMatchObject({ status: 'complete', message: 'Three years [1].' });
    expect(answered.metadata).toMatchObject({ relevance: { covered: true, score: expect.any(Number) } });
    expect(answered.metadata.not_covered).toBeUndefined();
    expect(modelCalls()).toBe(before + 1);
    // The model reads only the passages that pass the decision: not the opening hours.
    const system = (fake.requests.at(-1)!.body as { messages: Array<{ content: string }> }).messages[0]!
      .content;
    expect(system).toContain('three-year warranty');
    expect(system).not.toContain('Saturdays');
  });

  it('in balanced mode still asks the model, with no passage, and marks the answer not covered', async () => {
    const app = await applicationWith(t, owner.token, [HOURS]);
    await useProviderModel(t, owner.token, app.uuid, { baseUrl: fake.url, key: KEY });
    await api('PATCH', `/api/applications/${app.uuid}/`, { strictness: 'balanced' });
    const before = modelCalls();
    const answer = await ask(app.uuid, 'Which telescope should an astronomer buy for the winter sky?');
    expect(modelCalls()).toBe(before + 1);
    expect(answer.metadata).toMatchObject({ not_covered: true, relevance: { covered: false } });
    const system = (fake.requests.at(-1)!.body as { messages: Array<{ content: string }> }).messages[0]!
      .content;
    expect(system).toContain('No passage of the knowledge matches this question.');
  });
});

describe("the owner's words when the knowledge does not cover a question", () => {
  it('are stored on the application, checked at the boundary', async () => {
    const app = await applicationWith(t, owner.token, [HOURS]);
    const shown = await api('GET', `/api/applications/${app.uuid}/`);
    expect(shown.body.no_answer_message).toBe('');
    for (const bad of [42, null, 'x'.repeat(1001)]) {
      const res = await api('PATCH', `/api/applications/${app.uuid}/`, { no_answer_message: bad });
      expect(res.status).toBe(400);
      expect(res.body.errors.no_answer_message).toBeDefined();
    }
    const set = await api('PATCH', `/api/applications/${app.uuid}/`, {
      no_answer_message: `  ${OWNER_WORDS}\u0000 `,
    });
    expect(set.status).toBe(200);
    expect(set.body.no_answer_message).toBe(OWNER_WORDS);
  });

  it('are said in the chat, the public API and the widget; without them the default follows the language', async () => {
    const app = await applicationWith(t, owner.token, [HOURS]);
    const german = await ask(app.uuid, 'Wie viel kostet ein Teleskop für Astronomen?');
    expect(german.message).toBe(NOT_COVERED_ANSWERS.de);

    await api('PATCH', `/api/applications/${app.uuid}/`, { no_answer_message: OWNER_WORDS });
    const chat = await ask(app.uuid, 'Which telescope should an astronomer buy?');
    expect(chat.message).toBe(OWNER_WORDS);
    // A covered question is still answered from the knowledge.
    const covered = await ask(app.uuid, 'When does the shop open on Saturdays?');
    expect(covered.message).toContain('10:00 on Saturdays');

    const key = await api('POST', `/api/applications/${app.uuid}/api-keys/`, { name: 'Test' });
    const completion = await t.call('POST', '/api/v1/chat/completions', {
      headers: { authorization: `Bearer ${key.body.key}` },
      json: {
        model: app.uuid,
        messages: [{ role: 'user', content: 'Which telescope should an astronomer buy?' }],
      },
    });
    expect(completion.status).toBe(200);
    expect(completion.body.choices[0].message.content).toBe(OWNER_WORDS);

    await api('PATCH', `/api/applications/${app.uuid}/widget/`, { enabled: true, allowed_origins: [SHOP] });
    const page = await fetch(`${t.url}/embed/v1/${app.uuid}?origin=${encodeURIComponent(SHOP)}`);
    const token = (
      JSON.parse(
        /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(await page.text())![1]!,
      ) as { token: string }
    ).token;
    const visitor = { authorization: `Bearer ${token}` };
    const sent = await t.call('POST', '/api/widget/v1/messages/', {
      headers: visitor,
      json: { conversation_uuid: null, message: 'Which telescope should an astronomer buy?' },
    });
    expect(sent.status).toBe(201);
    const conversation = sent.body.conversation.uuid as string;
    let final: { text: string; status: string; not_covered: boolean } | undefined;
    for (let i = 0; i < 100 && final?.status !== 'complete'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const read = await t.call('GET', `/api/widget/v1/conversations/${conversation}/`, { headers: visitor });
      final = (
        read.body.messages as Array<{ role: string; text: string; status: string; not_covered: boolean }>
      ).find((m) => m.role === 'assistant');
    }
    // The visitor reads the owner's words, and the widget still offers a person (not_covered).
    expect(final).toMatchObject({ status: 'complete', text: OWNER_WORDS, not_covered: true });
  });
});

describe('small talk', () => {
  it("gets the application's greeting, is not counted as unanswered and cites nothing", async () => {
    const app = await applicationWith(t, owner.token, [HOURS]);
    await api('PATCH', `/api/applications/${app.uuid}/widget/`, { greeting: 'Welcome to the shop!' });
    const hi = await ask(app.uuid, 'Hi!');
    expect(hi.message).toBe('Welcome to the shop!');
    expect(hi.metadata).toMatchObject({ small_talk: true, sources: [] });
    expect(hi.metadata.not_covered).toBeUndefined();
    const thanks = await ask(app.uuid, 'thanks');
    expect(thanks.message).toBe("You're welcome! Anything else I can help with?");
    const inbox = await t.call<TAttention>('GET', `/api/applications/${app.uuid}/attention/`, {
      token: owner.token,
    });
    expect(inbox.body.unanswered).toEqual([]);
  });
});
