import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith, sendChatMessage, useProviderModel } from '../../testing/chat-fixtures.ts';
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
  const res = await sendChatMessage(t, owner, app.uuid, message);
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

describe('the other channels, through the same answer function', () => {
  it('the public API and MCP `ask` give the owner’s words too, without the model', async () => {
    const created = await api('POST', `/api/applications/${app.uuid}/api-keys/`, { json: { name: 'QA' } });
    const key = created.body.key as string;
    const before = modelCalls();
    const completion = await t.call('POST', '/api/v1/chat/completions', {
      headers: { authorization: `Bearer ${key}` },
      json: { model: app.uuid, messages: [{ role: 'user', content: 'how do I reset my password' }] },
    });
    expect(completion.status).toBe(200);
    expect(completion.body.choices[0].message.content).toBe(ANSWER);

    const client = new Client({ name: 'qa-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'ask', arguments: { question: 'Password reset?' } });
      expect(result.structuredContent).toMatchObject({
        answer: ANSWER,
        not_covered: false,
        sources: [{ index: 1, item_uuid: pair.uuid }],
      });
    } finally {
      await client.close();
    }
    expect(modelCalls()).toBe(before);
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

describe('POST …/knowledge/qa-import/', () => {
  const importCsv = (csv: string | Uint8Array, name = 'pairs.csv') => {
    const form = new FormData();
    form.set('file', new Blob([csv], { type: 'text/csv' }), name);
    return api('POST', `/api/applications/${app.uuid}/knowledge/qa-import/`, { form });
  };

  it('imports every pair of a CSV (BOM, header, quoted cells, phrasings by |), and they answer', async () => {
    const csv =
      '\uFEFFQuestion,Answer,Alternatives\r\n' +
      'Do you ship to Canada?,"Yes, in 5 to 7 days.\nCustoms are included.",Shipping to Canada|Canada delivery\r\n' +
      '"What is the ""Pro"" plan?",The plan for teams.,\r\n';
    const res = await importCsv(csv);
    expect(res.status).toBe(201);
    expect(res.body.map((item: TKnowledgeItem) => [item.type, item.title, item.qa])).toEqual([
      [
        'qa',
        'Do you ship to Canada?',
        {
          question: 'Do you ship to Canada?',
          answer: 'Yes, in 5 to 7 days.\nCustoms are included.',
          alternatives: ['Shipping to Canada', 'Canada delivery'],
        },
      ],
      [
        'qa',
        'What is the "Pro" plan?',
        { question: 'What is the "Pro" plan?', answer: 'The plan for teams.', alternatives: [] },
      ],
    ]);
    for (const item of res.body) await ready(item.uuid);
    const before = modelCalls();
    expect((await ask('canada delivery?')).message).toBe('Yes, in 5 to 7 days.\nCustoms are included.');
    expect(modelCalls()).toBe(before);
  });

  it('imports nothing when a row is bad, and names every bad row', async () => {
    const count = async () => (await api('GET', `/api/applications/${app.uuid}/knowledge/`)).body.length;
    const before = await count();
    const csv = [
      'Is there a warranty?,Two years.',
      'Is there a discount?,',
      ',An answer without a question',
      '"=HYPERLINK(""http://evil.example"")",Click',
      `Too many phrasings?,Yes,${Array.from({ length: 21 }, (_, i) => `p${i}`).join('|')}`,
      'a,b,c,d',
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      'row 2': ['answer: Required'],
      'row 3': ['question: Required'],
      'row 4': ['question: A spreadsheet formula; export the values instead'],
      'row 5': ['alternatives: At most 20 other phrasings'],
      'row 6': ['columns: Expected question, answer and alternatives (3 columns at most)'],
    });
    expect(res.body.detail).toMatch(/^Nothing was imported\. row 2: answer: Required\./);
    expect(await count()).toBe(before);
  });

  it('refuses hostile files with a 400: huge cells, NUL, bad quoting, not UTF-8, too many rows, no file', async () => {
    const huge = await importCsv(`q,"${'a'.repeat(200_000)}"`);
    expect(huge.status).toBe(400);
    expect((await importCsv('Question?,"unclosed')).status).toBe(400);
    expect(await importCsv(new Uint8Array([0x51, 0x2c, 0xff, 0xfe, 0x0a]))).toMatchObject({
      status: 400,
      body: { errors: { file: ['The file is not UTF-8 text: save the CSV as UTF-8.'] } },
    });
    const rows = Array.from({ length: 1001 }, (_, i) => `Question ${i}?,Answer ${i}`).join('\n');
    expect((await importCsv(rows)).body.detail).toBe('At most 1,000 pairs per import; this file has 1,001.');
    expect((await importCsv('question,answer\n')).body.detail).toBe('The file holds no Q&A pairs.');
    const nul = await importCsv('What\u0000 is NUL?,It is\u0000 removed.');
    expect(nul).toMatchObject({
      status: 201,
      body: [{ qa: { question: 'What is NUL?', answer: 'It is removed.' } }],
    });
    const none = await api('POST', `/api/applications/${app.uuid}/knowledge/qa-import/`, {
      form: new FormData(),
    });
    expect(none).toMatchObject({ status: 400, body: { errors: { file: ['Required'] } } });
  });

  it('answers a truncated multipart body and another owner’s application with 400 and 404', async () => {
    const boundary = 'qa-boundary';
    const truncated = await t.call('POST', `/api/applications/${app.uuid}/knowledge/qa-import/`, {
      token: owner.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      raw: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nq,a\r\n`,
    });
    expect(truncated.status).toBe(400);
    const stranger = await t.signUp();
    const form = new FormData();
    form.set('file', new Blob(['q,a']), 'a.csv');
    const foreign = await t.call('POST', `/api/applications/${app.uuid}/knowledge/qa-import/`, {
      token: stranger.token,
      form,
    });
    expect(foreign.status).toBe(404);
  });
});
