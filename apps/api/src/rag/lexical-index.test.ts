import type { Database } from '@cairn/db/client';
import { openTestDatabase } from '@cairn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dropLexicalIndex,
  lexicalIndexBuildsSettled,
  lexicalIndexState,
  readTsvector,
  setLexicalIndexBudget,
  warmLexicalIndex,
} from './lexical-index.ts';
import { lexicalSearch, lexicalSearchSql, type RankedChunk } from './retrieve.ts';
import { indexItems as indexItemsOf, insertApplication } from './test-fixtures.ts';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  if (database) await lexicalIndexBuildsSettled(database);
  await database?.close();
});

/** [title, text, language]: English, German, French, and unknown (indexed with `simple`). */
const ITEMS: [string, string, string | undefined][] = [
  [
    'Glaciers',
    'Glaciers are slow rivers of ice. As the climate warms, glaciers melt and retreat, and the meltwater raises the level of the sea.',
    'en',
  ],
  [
    'Bread',
    'Bread is made from flour, water, salt and yeast. The dough rises while the yeast ferments sugars, and baking sets the crumb.',
    'en',
  ],
  [
    'Volcanoes',
    'Volcanoes erupt when magma rises through the crust. Lava flows and ash clouds follow an eruption, and the ash can ground aeroplanes.',
    'en',
  ],
  [
    'Tides',
    'Tides are the rise and fall of the sea caused by the gravity of the Moon and the Sun acting on the oceans.',
    'en',
  ],
  [
    'Horses',
    'The horses are running across the meadow. A horse eats a lot of hay every day and drinks from the stream.',
    'en',
  ],
  [
    'Pferde',
    'Die Pferde laufen über die Wiese. Ein Pferd frisst jeden Tag viel Heu und trinkt Wasser aus dem Bach.',
    'de',
  ],
  [
    'Chevaux',
    'Les chevaux galopent dans la prairie. Un cheval mange beaucoup de foin chaque jour et boit l’eau de la rivière.',
    'fr',
  ],
  ['Filler', 'is the is the of the is the and the is sea sea', 'xx'],
  ['Codes', 'XK-42 ZQ-17 it’s the glacier’s code, path /usr/local/bin and mail ops@example.test', 'xx'],
  // Identical texts tie exactly: the order between them is the chunk id.
  ['Twin', 'Quasars are distant and bright; quasars outshine their galaxies.', 'en'],
  ['Twin', 'Quasars are distant and bright; quasars outshine their galaxies.', 'en'],
  ['Twin', 'Quasars are distant and bright; quasars outshine their galaxies.', 'en'],
];

const QUERIES = [
  'Why are the glaciers melting?',
  'Is the glacier melting?',
  'sea',
  'sea ash',
  'the sea and the ash and the bees',
  'the is of and',
  'yeast dough flour',
  'Pferd Wiese Heu',
  'die Pferde laufen',
  'cheval prairie rivière',
  'les chevaux',
  'horse horses running meadow Pferd cheval',
  'glacier Pferd cheval horse sea',
  'quasars',
  'bright quasar galaxy sea',
  'quantum chromodynamics',
  'zq-17 xk-42',
  'ops@example.test /usr/local/bin',
  '',
  '!!! ???',
  'Glaciers glaciers GLACIERS',
];

const indexItems = (applicationId: number, items: typeof ITEMS) =>
  indexItemsOf(database, applicationId, items);

function expectSameRanking(actual: RankedChunk[], expected: RankedChunk[]) {
  expect(actual.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  actual.forEach((r, i) => {
    const score = expected[i]!.score;
    expect(Math.abs(r.score - score)).toBeLessThanOrEqual(1e-9 * Math.abs(score));
  });
}

/** Searches from the copy and checks that the copy answered, and answered as BM25_SQL does. */
async function expectCachedLikeSql(
  applicationId: number,
  query: string,
  limit: number,
  pruning?: { largeCollection: number; commonWordFraction: number },
) {
  const before = lexicalIndexState(database, applicationId)!.searches;
  const cached = await lexicalSearch(database, applicationId, query, limit, pruning);
  expect(lexicalIndexState(database, applicationId)?.searches, query).toBe(before + 1);
  expectSameRanking(cached, await lexicalSearchSql(database, applicationId, query, limit, pruning));
  return cached;
}

describe('lexical index (in-process BM25)', () => {
  it('holds exactly the application’s postings', async () => {
    const { applicationId } = await insertApplication(database);
    const other = await insertApplication(database);
    await indexItems(applicationId, ITEMS);
    await indexItems(other.applicationId, ITEMS.slice(0, 3));
    const index = await warmLexicalIndex(database, applicationId);
    expect(index).toBeDefined();
    const key = (r: { ts_config: number; lexeme: string; chunk_id: number }) =>
      `${r.ts_config}|${r.lexeme}|${r.chunk_id}`;
    const copied = [...index!.rows()].map((r) => ({ ...r, key: key(r) }));
    const { rows } = await database.query<{
      ts_config: number;
      lexeme: string;
      chunk_id: number;
      tf: number;
      chunk_length: number;
    }>(
      'SELECT ts_config, lexeme, chunk_id, tf, chunk_length FROM knowledge_postings WHERE application_id = $1',
      [applicationId],
    );
    const stored = rows.map((r) => ({ ...r, key: key(r) }));
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    expect(copied.sort(byKey)).toEqual(stored.sort(byKey));
    expect(index!.configs).toEqual([0, 1, 9, 10]);
  });

  it('ranks and scores as BM25_SQL: stop words, absent words, several languages, ties', async () => {
    const { applicationId } = await insertApplication(database);
    await indexItems(applicationId, ITEMS);
    await warmLexicalIndex(database, applicationId);
    for (const query of QUERIES) {
      for (const limit of [1, 2, 5, 50]) await expectCachedLikeSql(applicationId, query, limit);
    }
    // The twins tie: the lower chunk ids come first, and the limit cuts between them.
    const twins = await expectCachedLikeSql(applicationId, 'quasars', 2);
    expect(twins).toHaveLength(2);
    expect(twins[0]!.score).toBe(twins[1]!.score);
    expect(twins[0]!.id).toBeLessThan(twins[1]!.id);
  });

  it('drops stop words only of the configurations that have postings, as BM25_SQL does', async () => {
    const { applicationId } = await insertApplication(database);
    // The German chunk is all stop words: it has no postings, so German is not "in use" and
    // "die" still counts in the simple and English chunks.
    await indexItems(applicationId, [
      ['Film', 'Die Hard is a film; die casting is a process.', 'en'],
      ['Nur', 'und die der das', 'de'],
      ['Raw', 'die die die', 'xx'],
    ]);
    const index = await warmLexicalIndex(database, applicationId);
    expect(index!.configs).toEqual([0, 1]);
    expect(await expectCachedLikeSql(applicationId, 'die', 10)).toHaveLength(2);
  });

  it('skips common words as BM25_SQL does (pruning forced on a small application)', async () => {
    const { applicationId } = await insertApplication(database);
    await indexItems(applicationId, ITEMS);
    await warmLexicalIndex(database, applicationId);
    for (const commonWordFraction of [0, 0.1, 0.2, 0.3, 1]) {
      const pruning = { largeCollection: 5, commonWordFraction };
      for (const query of QUERIES) await expectCachedLikeSql(applicationId, query, 10, pruning);
    }
    // Only common words: all of them count. A common word beside an absent one: it is skipped.
    const pruning = { largeCollection: 5, commonWordFraction: 0.1 };
    expect(await expectCachedLikeSql(applicationId, 'sea', 10, pruning)).toHaveLength(3);
    expect(await expectCachedLikeSql(applicationId, 'sea quantum', 10, pruning)).toEqual([]);
    // Below the size where pruning starts, nothing is skipped.
    await expectCachedLikeSql(applicationId, 'sea ash', 10, {
      largeCollection: 1000,
      commonWordFraction: 0.1,
    });
  });

  it('answers in SQL once the knowledge changed, and from memory again after a rebuild', async () => {
    const { applicationId } = await insertApplication(database);
    const [glaciers] = await indexItems(applicationId, ITEMS);
    const built = await warmLexicalIndex(database, applicationId);
    await expectCachedLikeSql(applicationId, 'glacier sea', 10);

    // An item added: the copy is out of date, so SQL answers (and finds the new item).
    await indexItems(applicationId, [['Iceberg', 'An iceberg is a piece of a glacier adrift at sea.', 'en']]);
    const afterAdd = await lexicalSearch(database, applicationId, 'glacier sea iceberg', 10);
    expectSameRanking(afterAdd, await lexicalSearchSql(database, applicationId, 'glacier sea iceberg', 10));
    expect(lexicalIndexState(database, applicationId)).toBeUndefined();
    expect(await lexicalSearch(database, applicationId, 'iceberg', 10)).toHaveLength(1);
    // The copy was built just now, so no rebuild starts yet (a knowledge base being filled item
    // by item is not copied after every item).
    await lexicalIndexBuildsSettled(database);
    expect(lexicalIndexState(database, applicationId)).toBeUndefined();

    const rebuilt = await warmLexicalIndex(database, applicationId);
    expect(Number(rebuilt!.version)).toBeGreaterThan(Number(built!.version));
    await expectCachedLikeSql(applicationId, 'glacier sea iceberg', 10);

    // An item removed: the same again.
    await database.query('DELETE FROM knowledge_items WHERE id = $1', [glaciers]);
    const afterDelete = await lexicalSearch(database, applicationId, 'glacier sea', 10);
    expectSameRanking(afterDelete, await lexicalSearchSql(database, applicationId, 'glacier sea', 10));
    expect(lexicalIndexState(database, applicationId)).toBeUndefined();
    await warmLexicalIndex(database, applicationId);
    await expectCachedLikeSql(applicationId, 'glacier sea', 10);
  });

  it('stays exact when the knowledge changes while the copy is being read', async () => {
    const { applicationId } = await insertApplication(database);
    await indexItems(applicationId, ITEMS);
    const building = warmLexicalIndex(database, applicationId);
    await indexItems(applicationId, [['Iceberg', 'An iceberg is a piece of a glacier adrift at sea.', 'en']]);
    // Read wholly before the change (then out of date), wholly after it, or dropped: never half.
    const index = await building;
    const [{ version } = { version: '' }] = (
      await database.query<{ version: string }>(
        'SELECT version::text AS version FROM knowledge_index_stats WHERE application_id = $1',
        [applicationId],
      )
    ).rows;
    if (index?.version === version) {
      const { rows } = await database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM knowledge_postings WHERE application_id = $1',
        [applicationId],
      );
      expect(index.postings).toBe(rows[0]!.n);
    }
    for (const query of ['glacier sea iceberg', 'iceberg']) {
      expectSameRanking(
        await lexicalSearch(database, applicationId, query, 10),
        await lexicalSearchSql(database, applicationId, query, 10),
      );
    }
  });

  it('builds in the background after a search answered in SQL', async () => {
    const { applicationId } = await insertApplication(database);
    await indexItems(applicationId, ITEMS.slice(0, 4));
    expect(lexicalIndexState(database, applicationId)).toBeUndefined();
    const first = await lexicalSearch(database, applicationId, 'sea', 10);
    await lexicalIndexBuildsSettled(database);
    expect(lexicalIndexState(database, applicationId)?.searches).toBe(0);
    expectSameRanking(await lexicalSearch(database, applicationId, 'sea', 10), first);
    expect(lexicalIndexState(database, applicationId)?.searches).toBe(1);
  });

  it('keeps an application without knowledge out of the cache', async () => {
    const { applicationId } = await insertApplication(database);
    expect(await lexicalSearch(database, applicationId, 'sea', 10)).toEqual([]);
    expect(await warmLexicalIndex(database, applicationId)).toBeUndefined();
    // Every chunk deleted: an empty copy, which finds nothing either.
    const [item] = await indexItems(applicationId, ITEMS.slice(0, 1));
    await database.query('DELETE FROM knowledge_items WHERE id = $1', [item]);
    expect((await warmLexicalIndex(database, applicationId))?.postings).toBe(0);
    expect(await expectCachedLikeSql(applicationId, 'glacier', 10)).toEqual([]);
  });

  it('drops the least recently used copies beyond the memory budget', async () => {
    const apps: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { applicationId } = await insertApplication(database);
      await indexItems(applicationId, ITEMS.slice(i * 3, i * 3 + 3));
      apps.push(applicationId);
    }
    const [a, b, c] = apps as [number, number, number];
    const copies = [];
    for (const app of apps) copies.push((await warmLexicalIndex(database, app))!);
    const sizes = copies.map((copy) => copy.bytes);
    dropLexicalIndex(database, copies[2]!);
    // Room for a, b and c but one byte: the copies of the tests above go, a and b stay.
    const previous = setLexicalIndexBudget(sizes[0]! + sizes[1]! + sizes[2]! - 1);
    try {
      expect(lexicalIndexState(database, a)).toBeDefined();
      expect(lexicalIndexState(database, b)).toBeDefined();
      await expectCachedLikeSql(a, 'sea', 5); // a is now used more recently than b
      await warmLexicalIndex(database, c);
      expect(lexicalIndexState(database, a)).toBeDefined();
      expect(lexicalIndexState(database, b)).toBeUndefined();
      expect(lexicalIndexState(database, c)).toBeDefined();
      // A copy bigger than the whole budget is not kept: that application is searched in SQL.
      setLexicalIndexBudget(Math.min(...sizes) - 1);
      expect(lexicalIndexState(database, a)).toBeUndefined();
      expect(await warmLexicalIndex(database, b)).toBeUndefined();
      expectSameRanking(
        await lexicalSearch(database, b, 'bread sea', 5),
        await lexicalSearchSql(database, b, 'bread sea', 5),
      );
      await lexicalIndexBuildsSettled(database);
      expect(lexicalIndexState(database, b)).toBeUndefined();
    } finally {
      setLexicalIndexBudget(previous);
    }
  });
});

describe('readTsvector', () => {
  it('reads lexemes and their number of positions as unnest(tsvector) does', async () => {
    const text = String.raw`'a''b':1,2 'c\\d':3A 'e f':4,5,6B 'g' 'plain':7`;
    const { rows } = await database.query<{ lexeme: string; tf: number | null; out: string }>(
      `SELECT u.lexeme, cardinality(u.positions) AS tf, $1::tsvector::text AS out FROM unnest($1::tsvector) u`,
      [text],
    );
    const read: [string, number][] = [];
    readTsvector(rows[0]!.out, (lexeme, tf) => read.push([lexeme, tf]));
    expect(read).toEqual(rows.map((r) => [r.lexeme, r.tf ?? 0]));
    expect(read.map(([lexeme]) => lexeme)).toContain("a'b");
    expect(read.map(([lexeme]) => lexeme)).toContain('c\\d');
  });
});
