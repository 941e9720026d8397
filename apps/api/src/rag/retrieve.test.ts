import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import type { Database } from '@cairn/db/client';
import { openTestDatabase } from '@cairn/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelCtx } from '../lib/ctx.ts';
import type { Embedder } from '../models/types.ts';
import { indexItem, indexItemWith } from './index-chunks.ts';
import { lexicalIndexBuildsSettled } from './lexical-index.ts';
import { fuseByReciprocalRank, lexicalSearch, retrieve, retrieveWith } from './retrieve.ts';
import { insertApplication, insertItem, modelCtxOf, textDocument } from './test-fixtures.ts';
import type { ParsedDocument } from './types.ts';

let database: Database;
let ctx: ModelCtx;
beforeAll(async () => {
  database = await openTestDatabase();
  ctx = modelCtxOf(database);
});
afterAll(async () => {
  // Searches start building in-process copies of the postings in the background.
  if (database) await lexicalIndexBuildsSettled(database);
  await database?.close();
});

const CORPUS: Record<string, string> = {
  Glaciers:
    'Glaciers are slow rivers of ice. As the climate warms, glaciers melt and retreat, and the meltwater raises the level of the sea.',
  Bread:
    'Bread is made from flour, water, salt and yeast. The dough rises while the yeast ferments sugars, and baking sets the crumb.',
  Volcanoes:
    'Volcanoes erupt when magma rises through the crust. Lava flows and ash clouds follow an eruption, and the ash can ground aeroplanes.',
  Bees: 'Bees pollinate flowers while they collect nectar. A colony of honey bees has one queen, thousands of workers and some drones.',
  Tides:
    'Tides are the rise and fall of the sea caused by the gravity of the Moon and the Sun acting on the oceans.',
};

async function indexCorpus(applicationId: number, corpus: Record<string, string>, language?: string) {
  const ids: Record<string, number> = {};
  for (const [title, text] of Object.entries(corpus)) {
    const itemId = await insertItem(database, applicationId, title);
    ids[title] = itemId;
    await indexItem(ctx, {
      applicationId,
      itemId,
      document: textDocument(title, text, language),
      llmModels: DEFAULT_LLM_MODELS,
    });
  }
  return ids;
}

const app = (id: number) => ({ id, llmModels: DEFAULT_LLM_MODELS });

describe('retrieve (built-in: BM25)', () => {
  it('ranks the passage that answers first and returns citation fields', async () => {
    const { applicationId } = await insertApplication(database);
    await indexCorpus(applicationId, CORPUS);
    const results = await retrieve(ctx, app(applicationId), 'Why are the glaciers melting?', 3);
    expect(results[0]?.item_title).toBe('Glaciers');
    expect(results[0]).toMatchObject({ content: CORPUS.Glaciers, page: null, heading: null });
    expect(results[0]?.item_uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await retrieve(ctx, app(applicationId), 'yeast dough', 1)).map((r) => r.item_title)).toEqual([
      'Bread',
    ]);
    expect((await retrieve(ctx, app(applicationId), 'what does a queen bee do', 1))[0]?.item_title).toBe(
      'Bees',
    );
  });

  it('weighs a rare term above a common one (IDF)', async () => {
    const { applicationId } = await insertApplication(database);
    // "sea" is in two items, "ash" in one: a query with both prefers the ash passage.
    await indexCorpus(applicationId, CORPUS);
    const results = await retrieve(ctx, app(applicationId), 'sea ash', 5);
    expect(results[0]?.item_title).toBe('Volcanoes');
    expect(results.map((r) => r.item_title).sort()).toEqual(['Glaciers', 'Tides', 'Volcanoes']);
  });

  it('scores a hyphenated compound of the question by its parts, and keeps a signed number', async () => {
    const { applicationId } = await insertApplication(database);
    await indexCorpus(applicationId, {
      Mail: 'Send the e-mail to the harbour office before noon.',
      Post: 'Letters and parcels go to the office by post.',
      Cytokines: 'IL-6 rises after the infection.',
      Counts: 'IL 6.',
    });
    // "e-mail" is also the parser's words "e" and "mail": counted once, not twice.
    const compound = await lexicalSearch(database, applicationId, 'e-mail office', 10);
    expect(compound).toEqual(await lexicalSearch(database, applicationId, 'e mail office', 10));
    expect(compound[0]!.score).toBeGreaterThan(compound[1]!.score);
    // "IL-6" is read as "il" and the signed number "-6", which stays: the shorter "IL 6" loses.
    const signed = await retrieve(ctx, app(applicationId), 'IL-6', 2);
    expect(signed.map((r) => r.item_title)).toEqual(['Cytokines', 'Counts']);
  });

  it('skips very common words in a large application, unless every word is common', async () => {
    const { applicationId } = await insertApplication(database);
    await indexCorpus(applicationId, CORPUS);
    // Treat 5 chunks as large and 30% as common: "sea" (2 of 5 chunks) is skipped, "ash" is not.
    const pruning = { largeCollection: 5, commonWordFraction: 0.3 };
    const pruned = await lexicalSearch(database, applicationId, 'sea ash', 10, pruning);
    const full = await lexicalSearch(database, applicationId, 'sea ash', 10);
    expect(pruned).toHaveLength(1);
    expect(full).toHaveLength(3);
    expect(pruned[0]?.id).toBe(full[0]?.id);
    // Only common words: all of them are used.
    expect(await lexicalSearch(database, applicationId, 'sea', 10, pruning)).toHaveLength(2);
  });

  it('finds nothing when no word of the query is in the knowledge', async () => {
    const { applicationId } = await insertApplication(database);
    await indexCorpus(applicationId, CORPUS);
    expect(await retrieve(ctx, app(applicationId), 'quantum chromodynamics', 5)).toEqual([]);
    expect(await retrieve(ctx, app(applicationId), '   ', 5)).toEqual([]);
  });

  it('returns at most topK passages, scores descending', async () => {
    const { applicationId } = await insertApplication(database);
    await indexCorpus(applicationId, CORPUS);
    const results = await retrieve(ctx, app(applicationId), 'the sea and the ash and the bees', 2);
    expect(results).toHaveLength(2);
    expect(results[0]!.score).toBeGreaterThanOrEqual(results[1]!.score);
  });

  it('only searches the application it is asked about', async () => {
    const mine = await insertApplication(database);
    const theirs = await insertApplication(database);
    await indexCorpus(theirs.applicationId, {
      Secret: 'The launch code of the glacier observatory is hidden.',
    });
    await indexCorpus(mine.applicationId, { Glaciers: CORPUS.Glaciers! });
    const results = await retrieve(ctx, app(mine.applicationId), 'glacier launch code', 10);
    expect(results.map((r) => r.item_title)).toEqual(['Glaciers']);
    // Document frequencies are per application: the other application's rows do not count.
    const [only] = await lexicalSearch(database, mine.applicationId, 'glacier', 5);
    const [alone] = await lexicalSearch(database, theirs.applicationId, 'glacier', 5);
    expect(only?.score).toBeGreaterThan(0);
    expect(alone?.score).toBeGreaterThan(0);
  });

  it('keeps results of a deleted item out', async () => {
    const { applicationId } = await insertApplication(database);
    const ids = await indexCorpus(applicationId, CORPUS);
    await database.query('DELETE FROM knowledge_items WHERE id = $1', [ids.Bread]);
    expect(await retrieve(ctx, app(applicationId), 'yeast dough flour', 5)).toEqual([]);
  });
});

describe('language handling', () => {
  it('drops stop words for every chunk, also those indexed without stemming', async () => {
    const { applicationId } = await insertApplication(database);
    await indexCorpus(
      applicationId,
      { Glaciers: 'The glacier melts in the summer and grows in the winter.' },
      'en',
    );
    // An unknown language is indexed with `simple`, which keeps "is" and "the" as words.
    await indexCorpus(applicationId, { Filler: 'is the is the of the is the and the is' }, 'xx');
    const results = await retrieve(ctx, app(applicationId), 'Is the glacier melting?', 5);
    expect(results.map((r) => r.item_title)).toEqual(['Glaciers']);
  });

  it('counts a word as common across languages (document frequency per word)', async () => {
    const { applicationId } = await insertApplication(database);
    // "protein" is in every item, in two languages; "kinase" in one English item only.
    await indexCorpus(
      applicationId,
      {
        A: 'The protein folds quickly in the cell and the kinase binds the membrane.',
        B: 'The protein is stable in the cell at room temperature for days.',
      },
      'en',
    );
    await indexCorpus(applicationId, { C: 'Protein protein protein protein.' }, 'xx');
    const results = await retrieve(ctx, app(applicationId), 'protein kinase', 3);
    expect(results[0]?.item_title).toBe('A');
  });

  it('stems each item in its own language and matches inflected query words', async () => {
    const { applicationId } = await insertApplication(database);
    await indexCorpus(applicationId, {
      Pferde:
        'Die Pferde laufen über die Wiese. Ein Pferd frisst jeden Tag viel Heu und trinkt Wasser aus dem Bach.',
      Chevaux:
        'Les chevaux galopent dans la prairie. Un cheval mange beaucoup de foin chaque jour et boit l’eau de la rivière.',
      Horses:
        'The horses are running across the meadow. A horse eats a lot of hay every day and drinks from the stream.',
    });
    const languages = (
      await database.query<{ title: string; language: string; ts_config: number }>(
        `SELECT DISTINCT i.title, c.language, c.ts_config FROM knowledge_chunks c JOIN knowledge_items i ON i.id = c.item_id
         WHERE c.application_id = $1 ORDER BY i.title`,
        [applicationId],
      )
    ).rows;
    expect(languages.map((l) => [l.title, l.language])).toEqual([
      ['Chevaux', 'fr'],
      ['Horses', 'en'],
      ['Pferde', 'de'],
    ]);
    // Singular query words find plural text (and back) through each language's stemmer.
    expect((await retrieve(ctx, app(applicationId), 'Pferd', 3)).map((r) => r.item_title)).toEqual([
      'Pferde',
    ]);
    expect((await retrieve(ctx, app(applicationId), 'cheval', 3)).map((r) => r.item_title)).toEqual([
      'Chevaux',
    ]);
    expect((await retrieve(ctx, app(applicationId), 'horse', 3)).map((r) => r.item_title)).toEqual([
      'Horses',
    ]);
  });

  it('uses the simple configuration when the language is unknown', async () => {
    const { applicationId } = await insertApplication(database);
    const itemId = await insertItem(database, applicationId, 'Codes');
    const result = await indexItem(ctx, {
      applicationId,
      itemId,
      document: textDocument('Codes', 'XK-42 ZQ-17'),
      llmModels: DEFAULT_LLM_MODELS,
    });
    expect(result.language).toBeUndefined();
    const [row] = (
      await database.query<{ ts_config: number }>(
        'SELECT ts_config FROM knowledge_chunks WHERE item_id = $1',
        [itemId],
      )
    ).rows;
    expect(row?.ts_config).toBe(0);
    expect((await retrieve(ctx, app(applicationId), 'zq-17', 3)).map((r) => r.item_title)).toEqual(['Codes']);
  });
});

/**
 * A deterministic embedder for the storage and fusion tests: hashed character trigrams, L2
 * normalised. It is not offered as a model anywhere; provider models are tested at the wire by
 * the models work. What it checks here is how vectors of different models and sizes are kept apart.
 */
function trigramEmbedder(id: string, dimensions: number): Embedder {
  return {
    id,
    dimensions,
    async embed(texts) {
      return texts.map((text) => {
        const v = new Array<number>(dimensions).fill(0);
        const s = ` ${text.toLowerCase()} `;
        for (let i = 0; i + 3 <= s.length; i++) {
          let h = 0;
          for (const ch of s.slice(i, i + 3)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
          v[h % dimensions]! += 1;
        }
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
    },
  };
}

async function indexWith(applicationId: number, title: string, text: string, embedder: Embedder | null) {
  const itemId = await insertItem(database, applicationId, title);
  const document: ParsedDocument = textDocument(title, text);
  await indexItemWith(database, { applicationId, itemId, document, llmModels: DEFAULT_LLM_MODELS }, embedder);
  return itemId;
}

describe('vectors', () => {
  it('stores vectors of different sizes side by side and searches only the current model', async () => {
    const { applicationId } = await insertApplication(database);
    const small = trigramEmbedder('test/small', 8);
    const large = trigramEmbedder('test/large', 384);
    await indexWith(applicationId, 'Glaciers', CORPUS.Glaciers!, small);
    const breadId = await indexWith(applicationId, 'Bread', CORPUS.Bread!, large);
    const dims = (
      await database.query<{ model_id: string; dimensions: number }>(
        'SELECT model_id, dimensions FROM knowledge_chunk_vectors WHERE application_id = $1 ORDER BY dimensions',
        [applicationId],
      )
    ).rows;
    expect(dims).toEqual([
      { model_id: 'test/small', dimensions: 8 },
      { model_id: 'test/large', dimensions: 384 },
    ]);
    // A query with no shared word: only the vector ranking can find something, and only among
    // chunks of the model in use (384 dimensions: the HNSW-indexed path).
    const results = await retrieveWith(database, applicationId, large, 'breadmaking', 5);
    expect(results.map((r) => r.item_title)).toEqual(['Bread']);
    // Re-indexing with the other model replaces the item's vector.
    await indexItemWith(
      database,
      {
        applicationId,
        itemId: breadId,
        document: textDocument('Bread', CORPUS.Bread!),
        llmModels: DEFAULT_LLM_MODELS,
      },
      small,
    );
    expect(await retrieveWith(database, applicationId, large, 'breadmaking', 5)).toEqual([]);
    expect((await retrieveWith(database, applicationId, small, 'breadmaking', 5)).length).toBe(2);
  });

  it('fuses the vector and keyword rankings', async () => {
    const { applicationId } = await insertApplication(database);
    const embedder = trigramEmbedder('test/fuse', 64);
    for (const [title, text] of Object.entries(CORPUS)) await indexWith(applicationId, title, text, embedder);
    const [best] = await retrieveWith(database, applicationId, embedder, 'glaciers melt', 3);
    expect(best?.item_title).toBe('Glaciers');
    // In both rankings at rank 1: the highest possible fused score.
    expect(best?.score).toBeCloseTo(2 / 61, 10);
  });

  it('refuses vectors of the wrong size from a model', async () => {
    const { applicationId } = await insertApplication(database);
    const liar: Embedder = { ...trigramEmbedder('test/liar', 16), dimensions: 32 };
    await expect(indexWith(applicationId, 'Bees', CORPUS.Bees!, liar)).rejects.toThrow(/16 dimensions; 32/);
  });
});

describe('fuseByReciprocalRank', () => {
  it('adds 1/(60 + rank) over the rankings', () => {
    const fused = fuseByReciprocalRank([
      [
        { id: 1, score: 9 },
        { id: 2, score: 5 },
      ],
      [
        { id: 2, score: 0.9 },
        { id: 3, score: 0.8 },
      ],
    ]);
    expect(fused.map((f) => f.id)).toEqual([2, 1, 3]);
    expect(fused[0]?.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
  });
});
