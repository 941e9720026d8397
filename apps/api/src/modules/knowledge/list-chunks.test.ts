import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexItem } from '../../rag/index-chunks.ts';
import { insertItem } from '../../rag/test-fixtures.ts';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let owner: { token: string };
let app: { uuid: string; items: string[] };
let guide: string;

/** A three-page manual, each page long enough for a few chunks, with headings. */
const PAGES = [1, 2, 3].map((page) => ({
  page,
  text: `# Part ${page}\n\n${Array.from(
    { length: 160 },
    (_, i) => `Step ${page}.${i}: tighten bolt ${page}-${i} before the lantern is lit.`,
  ).join(' ')}`,
}));

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.signUp();
  app = await applicationWith(t, owner.token, [{ title: 'Hours', text: 'The shop opens at nine.' }]);
  const { rows } = await t.database.query<{ id: number; llm_models: never }>(
    'SELECT id, llm_models FROM applications WHERE uuid = $1',
    [app.uuid],
  );
  const itemId = await insertItem(t.database, rows[0]!.id, 'Lantern manual');
  await indexItem(t.app, {
    applicationId: rows[0]!.id,
    itemId,
    document: { title: 'Lantern manual', sections: PAGES },
    llmModels: rows[0]!.llm_models,
  });
  const item = await t.database.query<{ uuid: string }>('SELECT uuid FROM knowledge_items WHERE id = $1', [
    itemId,
  ]);
  guide = item.rows[0]!.uuid;
});
afterAll(() => t.close());

const chunksOf = (query: string, item = guide, token = owner.token, appUuid = app.uuid) =>
  t.call('GET', `/api/applications/${appUuid}/knowledge/${item}/chunks/${query}`, { token });

describe('GET …/knowledge/{itemId}/chunks/', () => {
  it('pages through every chunk in document order with its heading and page', async () => {
    const { rows } = await t.database.query<{ id: number; ordinal: number; page: number }>(
      `SELECT c.id, c.ordinal, c.page FROM knowledge_chunks c JOIN knowledge_items i ON i.id = c.item_id
       WHERE i.uuid = $1 ORDER BY c.ordinal`,
      [guide],
    );
    expect(rows.length).toBeGreaterThan(4);
    const seen: Array<{ id: number; position: number; page: number | null; heading: string | null }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await chunksOf(`?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(rows.length);
      expect(res.body.chunks.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.chunks);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor !== null && pages < 100);
    expect(seen.map((c) => c.id)).toEqual(rows.map((r) => r.id));
    expect(seen.map((c) => c.position)).toEqual(rows.map((r) => r.ordinal));
    expect(seen.map((c) => c.page)).toEqual(rows.map((r) => r.page));
    expect(new Set(seen.map((c) => c.page))).toEqual(new Set([1, 2, 3]));
    expect(seen.find((c) => c.page === 2)?.heading).toBe('Part 2');
    // The default page holds 20; the last page says there is no more.
    const all = await chunksOf('');
    expect(all.body.chunks).toHaveLength(Math.min(20, rows.length));
    const last = await chunksOf(`?cursor=${rows.at(-1)!.ordinal}`);
    expect(last.body).toMatchObject({ chunks: [], next_cursor: null });
  });

  it('lists the chunks of a switched-off item too: it is still there to see', async () => {
    const off = await t.call('PATCH', `/api/applications/${app.uuid}/knowledge/${guide}/`, {
      token: owner.token,
      json: { enabled: false },
    });
    expect(off.status).toBe(200);
    expect((await chunksOf('?limit=1')).body.chunks).toHaveLength(1);
  });

  it('refuses a bad cursor or limit with 400, and hides other owners’ items with 404', async () => {
    for (const query of [
      '?cursor=abc',
      '?cursor=-1',
      '?cursor=1.5',
      '?cursor=99999999999999999999',
      '?cursor=%00',
      '?limit=0',
      '?limit=101',
      '?limit=x',
    ]) {
      const res = await chunksOf(query);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toEqual(expect.any(String));
    }
    const stranger = await t.signUp();
    expect((await chunksOf('', guide, stranger.token)).status).toBe(404);
    // An item of another application of the same owner is not found through this one.
    const other = await applicationWith(t, owner.token, [{ title: 'Other', text: 'Other words.' }]);
    expect((await chunksOf('', guide, owner.token, other.uuid)).status).toBe(404);
    expect((await chunksOf('', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await chunksOf('', 'not-an-id')).status).toBe(404);
  });
});
