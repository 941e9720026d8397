import type { Database } from '@cairn/db/client';
import { openTestDatabase } from '@cairn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexicalIndexBuildsSettled, lexicalIndexState, warmLexicalIndex } from './lexical-index.ts';
import { lexicalSearch } from './retrieve.ts';
import { termStatistics } from './term-statistics.ts';
import { indexItems, insertApplication } from './test-fixtures.ts';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  if (database) await lexicalIndexBuildsSettled(database);
  await database?.close();
});

const ITEMS: [string, string, string | undefined][] = [
  ['Glaciers', 'Glaciers are slow rivers of ice. As the climate warms, glaciers melt and retreat.', 'en'],
  ['Sea', 'The level of the sea rises when glaciers melt; the sea is salty.', 'en'],
  ['Pferde', 'Die Pferde laufen über die Wiese und fressen Heu.', 'de'],
  ['Chevaux', 'Les chevaux galopent dans la prairie et mangent du foin.', 'fr'],
  ['Raw', 'XK-42 the glacier code, and die die die', 'xx'],
];

const QUERIES = [
  'Why are the glaciers melting?',
  'sea glacier Pferde chevaux',
  'die Pferde laufen',
  'les chevaux de la prairie',
  'quantum chromodynamics',
  'xk-42 the is of',
];

describe('term statistics', () => {
  it('counts the same from the cached copy of the postings as in SQL: stems, languages, stop words, absent words', async () => {
    const { applicationId } = await insertApplication(database);
    await indexItems(database, applicationId, ITEMS);
    expect(lexicalIndexState(database, applicationId)).toBeUndefined();
    const fromSql = await Promise.all(QUERIES.map((q) => termStatistics(database, applicationId, q)));
    expect(await warmLexicalIndex(database, applicationId)).toBeDefined();
    for (const [i, query] of QUERIES.entries()) {
      const cached = await termStatistics(database, applicationId, query);
      expect(cached, query).toEqual(fromSql[i]);
      // After a search, from the stems the search read.
      await lexicalSearch(database, applicationId, query, 5);
      expect(await termStatistics(database, applicationId, query), query).toEqual(fromSql[i]);
    }
    const glaciers = fromSql[0]!;
    expect(glaciers.chunks).toBeGreaterThanOrEqual(ITEMS.length);
    // Stemmed in English ("glacier" in two items); the raw item's "glacier" is another word unstemmed.
    expect(glaciers.df.get('glaciers')).toBe(2);
    expect(glaciers.stopWords.has('the')).toBe(true);
    expect(fromSql[4]!.df.get('quantum')).toBe(0);
    // Chunks per item title, the relevance decision's base rate for passages agreeing on one.
    expect(glaciers.titleChunks).toEqual(new Map(ITEMS.map(([title]) => [title, 1])));
  });
});
