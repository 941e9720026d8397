import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith, useProviderModel } from '../../testing/chat-fixtures.ts';
import { openChatSocket } from '../../testing/chat-socket.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const KEY = 'sk-test-key-qa';
const ANSWER =
  'Open **Settings → Account**, choose "Reset password" and follow the link we e-mail you.\n\nIt is valid for 1 hour.';
const MODEL_REPLY = 'The model wrote this [1].';

let t: TestApp;
let fake: FakeOpenAI;
let owner: { token: string; user: { id: number } };
let tab: Awaited<ReturnType<typeof openChatSocket>>;
let app: { uuid: string };
let pair: TKnowledgeItem;

const api = (method: string, path: string, options: { json?: unknown; form?: FormData } = {}) =>
  t.call(method, path, { token: owner.token, ...options });
const modelCalls = () => fake.requests.filter((r) => r.path === '/chat/completions').length;

function qaForm(fields: Record<string, string>): FormData {
  const form = new FormData();
  form.set('items[0].type', 'qa');
  for (const [key, value] of Object.entries(fields)) form.set(`items[0].${key}`, value);
  return form;
}

async function ready(uuid: string): Promise<TKnowledgeItem> {
  for (let i = 0; i < 200; i++) {
    const { body } = await api('GET', `/api/applications/${app.uuid}/knowledge/${uuid}/`);
    if (body.status === 'ready' || body.status === 'failed') return body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the item did not settle');
}

async function ask(message: string) {
  const res = await api('POST', `/api/applications/${app.uuid}/chatrooms/send-message/`, {
    json: {
      chatroom_identifier: 'new_chat',
      message,
      sender_identifier: `reg_${owner.user.id}`,
      metadata: { source: 'web' },
      send_to_user: false,
    },
  });
  expect(res.status).toBe(201);
  return tab.finalOf(res.body.answer.uuid);
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: KEY, models: ['fake-chat'] });
  fake.set({ apiKey: KEY, reply: MODEL_REPLY });
  t = await startTestApp();
  owner = await t.signUp();
  tab = await openChatSocket(t.url, owner.token);
  app = await applicationWith(t, owner.token, [
    {
      title: 'Opening hours',
      text: 'The shop opens at 9:00 from Monday to Friday and is closed on Sundays.',
    },
  ]);
  await useProviderModel(t, owner.token, app.uuid, { baseUrl: fake.url, key: KEY });
  const created = await api('POST', `/api/applications/${app.uuid}/knowledge/`, {
    form: qaForm({
      question: 'How do I reset my password?',
      answer: ANSWER,
      alternatives: 'I forgot my password\n\nCan I change a lost password?',
    }),
  });
  expect(created.status).toBe(201);
  expect(created.body[0]).toMatchObject({
    type: 'qa',
    title: 'How do I reset my password?',
    qa: {
      question: 'How do I reset my password?',
      alternatives: ['I forgot my password', 'Can I change a lost password?'],
      answer: ANSWER,
    },
  });
  pair = await ready(created.body[0].uuid);
  expect(pair).toMatchObject({ status: 'ready', chunk_count: 1 });
});
afterAll(async () => {
  tab.close();
  await t.close();
  await fake.close();
});

describe('a question that matches a Q&A pair', () => {
  it('is answered with the owner’s words, cited as the pair, without calling the model', async () => {
    const before = modelCalls();
    for (const question of [
      'How do I reset my password?',
      'how can I reset the password',
      'Resetting my password: how?',
      'I forgot my password!',
    ]) {
      const answer = await ask(question);
      expect(answer, question).toMatchObject({ status: 'complete', message: ANSWER });
      expect(answer.metadata).toMatchObject({
        qa_match: { item_uuid: pair.uuid, score: expect.any(Number) },
        relevance: { covered: true },
        sources: [{ index: 1, item_uuid: pair.uuid, item_title: 'How do I reset my password?' }],
      });
      expect(answer.metadata.usage).toBeUndefined();
    }
    expect(modelCalls()).toBe(before);
  });

  it('is found by search like any item', async () => {
    const res = await api('POST', `/api/applications/${app.uuid}/knowledge/search/`, {
      json: { query: 'reset password' },
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain(pair.uuid);
  });
});

describe('a question that does not match', () => {
  it('goes the usual way: retrieval and the model', async () => {
    const before = modelCalls();
    for (const question of ['When does the shop open on Monday?', 'How do I reset my router?']) {
      const answer = await ask(question);
      expect(answer.metadata.qa_match, question).toBeUndefined();
      expect(answer.message).not.toBe(ANSWER);
    }
    expect(modelCalls()).toBeGreaterThan(before);
  });
});

describe('editing and switching off a pair', () => {
  it('re-indexes a changed pair and answers with the new words at once', async () => {
    const res = await api('PATCH', `/api/applications/${app.uuid}/knowledge/${pair.uuid}/`, {
      json: {
        answer: 'Use the "Forgot password" link on the sign-in page.',
        alternatives: ['lost my password'],
      },
    });
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'queued', qa: { alternatives: ['lost my password'] } },
    });
    await ready(pair.uuid);
    expect((await ask('I lost my password')).message).toBe(
      'Use the "Forgot password" link on the sign-in page.',
    );
    const retitled = await api('PATCH', `/api/applications/${app.uuid}/knowledge/${pair.uuid}/`, {
      json: { question: 'How can I recover my password?' },
    });
    expect(retitled.body).toMatchObject({ title: 'How can I recover my password?' });
    await ready(pair.uuid);
  });

  it('never matches a disabled pair, and matches again once it is on', async () => {
    const path = `/api/applications/${app.uuid}/knowledge/${pair.uuid}/`;
    await api('PATCH', path, { json: { enabled: false } });
    expect((await ask('How can I recover my password?')).metadata.qa_match).toBeUndefined();
    await api('PATCH', path, { json: { enabled: true } });
    expect((await ask('How can I recover my password?')).metadata.qa_match).toMatchObject({
      item_uuid: pair.uuid,
    });
  });
});

describe('bad input', () => {
  it('names every bad field of a pair, and refuses pair fields on other items', async () => {
    const post = (form: FormData) => api('POST', `/api/applications/${app.uuid}/knowledge/`, { form });
    const empty = await post(qaForm({ question: ' ', answer: '' }));
    expect(empty).toMatchObject({
      status: 400,
      body: { errors: { 'items[0].question': ['Required'], 'items[0].answer': ['Required'] } },
    });
    const many = await post(
      qaForm({
        question: 'Q',
        answer: 'A',
        alternatives: Array.from({ length: 21 }, (_, i) => `q${i}`).join('\n'),
      }),
    );
    expect(many.body.errors['items[0].alternatives']).toEqual(['At most 20 other phrasings']);
    const huge = await post(qaForm({ question: 'x'.repeat(1001), answer: 'A\u0000'.repeat(20_001) }));
    expect(Object.keys(huge.body.errors).sort()).toEqual(['items[0].answer', 'items[0].question']);
    const text = new FormData();
    text.set('items[0].type', 'text');
    text.set('items[0].value', 'Some text');
    text.set('items[0].answer', 'An answer');
    expect((await post(text)).body.errors['items[0].answer']).toBeDefined();
  });

  it('refuses pair fields on another kind of item, bad types, and other owners’ items', async () => {
    const items = (await api('GET', `/api/applications/${app.uuid}/knowledge/`)).body as TKnowledgeItem[];
    const other = items.find((item) => item.type !== 'qa')!;
    const patch = (itemUuid: string, json: unknown, token = owner.token) =>
      t.call('PATCH', `/api/applications/${app.uuid}/knowledge/${itemUuid}/`, { token, json });
    expect(await patch(other.uuid, { answer: 'No' })).toMatchObject({
      status: 400,
      body: { errors: { answer: ['Only Q&A items have a question, answer and alternatives'] } },
    });
    for (const body of [{ question: '' }, { answer: 7 }, { alternatives: 'one' }, { alternatives: [''] }])
      expect((await patch(pair.uuid, body)).status).toBe(400);
    const stranger = await t.signUp();
    expect((await patch(pair.uuid, { answer: 'Mine now' }, stranger.token)).status).toBe(404);
  });
});
