import { RELEVANCE_THRESHOLD } from '@cairn/contracts/knowledge-search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let alice: { token: string };
let bob: { token: string };
let appUuid: string;

const TEXTS = [
  {
    title: 'Glaciers',
    value:
      '# Glaciers\n\nGlaciers are slow rivers of ice. As the climate warms, glaciers melt and retreat.\n\n## Measuring\n\nScientists measure glaciers with satellites and stakes drilled into the ice.',
  },
  {
    title: 'Bread',
    value: 'Bread is made from flour, water, salt and yeast. The dough rises while the yeast ferments.',
  },
  {
    title: 'Bees',
    value: 'Bees pollinate flowers while they collect nectar. A colony has one queen and many workers.',
  },
];

function itemsForm(items: Array<{ title: string; value: string }>, name?: string) {
  const form = new FormData();
  if (name !== undefined) form.append('name', name);
  items.forEach((item, i) => {
    form.append(`items[${i}].type`, 'text');
    form.append(`items[${i}].value`, item.value);
    form.append(`items[${i}].title`, item.title);
  });
  return form;
}

async function settled(token: string, uuid: string, count: number) {
  for (let i = 0; i < 300; i++) {
    const res = await t.call<Array<{ status: string }>>('GET', `/api/applications/${uuid}/knowledge/`, {
      token,
    });
    if (res.body.length === count && res.body.every((x) => x.status === 'ready' || x.status === 'failed')) {
      return res.body;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('items did not settle');
}

const search = (uuid: string, json: unknown, token = alice.token) =>
  t.call('POST', `/api/applications/${uuid}/knowledge/search/`, { token, json });

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
  const res = await t.call('POST', '/api/applications/', {
    token: alice.token,
    form: itemsForm(TEXTS, 'Search app'),
  });
  expect(res.status).toBe(201);
  appUuid = res.body.uuid;
  const items = await settled(alice.token, appUuid, TEXTS.length);
  expect(items.every((i) => i.status === 'ready')).toBe(true);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/applications/{appId}/knowledge/search/', () => {
  it('returns the best passages with their item, heading and score', async () => {
    const res = await search(appUuid, { query: 'How do scientists measure a glacier?' });
    expect(res.status).toBe(200);
    const [best] = res.body.results;
    expect(best).toMatchObject({
      item_title: 'Glaciers',
      heading: 'Glaciers › Measuring',
      page: null,
      content: '## Measuring\n\nScientists measure glaciers with satellites and stakes drilled into the ice.',
    });
    expect(best.item_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isInteger(best.chunk_id)).toBe(true);
    expect(best.score).toBeGreaterThan(0);
    const scores = res.body.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('defaults top_k to 5 and honours a smaller one', async () => {
    const many = await search(appUuid, { query: 'glaciers ice bread yeast bees queen flowers satellites' });
    expect(many.status).toBe(200);
    expect(many.body.results.length).toBeLessThanOrEqual(5);
    expect(many.body.results.length).toBeGreaterThan(2);
    const one = await search(appUuid, { query: 'yeast', top_k: 1 });
    expect(one.body.results.map((r: { item_title: string }) => r.item_title)).toEqual(['Bread']);
  });

  it('answers an empty list when nothing matches', async () => {
    const res = await search(appUuid, { query: 'quantum chromodynamics' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: [],
      decision: { answered: false, missing: ['quantum', 'chromodynamics'] },
    });
  });

  it('explains each passage: its relevance as the answers measure it, and whether they would use it', async () => {
    const res = await search(appUuid, { query: 'How do scientists measure a glacier?', top_k: 3 });
    expect(res.status).toBe(200);
    expect(res.body.decision).toEqual({ answered: true, missing: [] });
    const [best, ...rest] = res.body.results;
    expect(best).toMatchObject({ item_title: 'Glaciers', used: true });
    expect(best.relevance).toBeGreaterThanOrEqual(RELEVANCE_THRESHOLD);
    expect(best.relevance).toBeLessThanOrEqual(100);
    for (const other of rest) {
      expect(Number.isInteger(other.relevance)).toBe(true);
      expect(other.relevance).toBeLessThan(best.relevance);
    }
    // The opening words of the question weigh nothing: "scientists measure glaciers" alone says the same.
    const plain = await search(appUuid, { query: 'scientists measure glaciers', top_k: 1 });
    expect(plain.body.results[0].relevance).toBe(best.relevance);
  });

  it('says why a question would be declined: the words the best passage lacks', async () => {
    const res = await search(appUuid, { query: 'Which varnish protects the bread oven?', top_k: 3 });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ item_title: 'Bread', used: false });
    expect(res.body.results[0].relevance).toBeLessThan(RELEVANCE_THRESHOLD);
    expect(res.body.decision).toEqual({ answered: false, missing: ['varnish', 'protects', 'oven'] });
  });

  it('rejects bad input with field errors', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 42 }, 'query'],
      [{ query: 'x'.repeat(2001) }, 'query'],
      [{ query: 'bees', top_k: 0 }, 'top_k'],
      [{ query: 'bees', top_k: 51 }, 'top_k'],
      [{ query: 'bees', top_k: 2.5 }, 'top_k'],
      [{ query: 'bees', top_k: '3' }, 'top_k'],
    ];
    for (const [json, field] of cases) {
      const res = await search(appUuid, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(Object.keys(res.body.errors ?? {})).toContain(field);
    }
    const max = await search(appUuid, { query: 'bees', top_k: 50 });
    expect(max.status).toBe(200);
  });

  it('hides another user’s application and needs a login', async () => {
    const res = await search(appUuid, { query: 'glaciers' }, bob.token);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const anonymous = await t.call('POST', `/api/applications/${appUuid}/knowledge/search/`, {
      json: { query: 'glaciers' },
    });
    expect(anonymous.status).toBe(401);
    // A malformed id is simply not found, as everywhere in the API.
    const badId = await search('not-a-uuid', { query: 'glaciers' });
    expect(badId.status).toBe(404);
    const unknown = await search('00000000-0000-4000-8000-000000000000', { query: 'glaciers' });
    expect(unknown.status).toBe(404);
  });

  it('searches only the application asked about', async () => {
    const res = await t.call('POST', '/api/applications/', {
      token: bob.token,
      form: itemsForm(
        [{ title: 'Bob glaciers', value: 'Bob keeps notes on glaciers and their ice.' }],
        'Bob app',
      ),
    });
    const bobApp = res.body.uuid as string;
    await settled(bob.token, bobApp, 1);
    const mine = await search(appUuid, { query: 'glaciers ice notes', top_k: 50 });
    expect(mine.body.results.map((r: { item_title: string }) => r.item_title)).not.toContain('Bob glaciers');
    const his = await search(bobApp, { query: 'glaciers ice notes', top_k: 50 }, bob.token);
    expect(his.body.results.map((r: { item_title: string }) => r.item_title)).toEqual(['Bob glaciers']);
  });
});
