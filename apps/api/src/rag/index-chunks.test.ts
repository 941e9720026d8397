import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import type { Database } from '@cairn/db/client';
import { knowledgeItems } from '@cairn/db/schema';
import { openTestDatabase } from '@cairn/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelCtx } from '../lib/ctx.ts';
import { fromJson } from '../lib/product-events.ts';
import { deleteItemChunks, indexItem, indexReadyItems, prepareChunks } from './index-chunks.ts';
import { insertApplication, insertItem, modelCtxOf, textDocument } from './test-fixtures.ts';

let database: Database;
let ctx: ModelCtx;
beforeAll(async () => {
  database = await openTestDatabase();
  ctx = modelCtxOf(database);
});
afterAll(async () => {
  await database?.close();
});

const ENGLISH =
  'Glaciers store about seventy percent of the fresh water on Earth. When they melt, sea levels rise and coastal cities flood more often. Scientists measure glaciers with satellites and with stakes drilled into the ice.';

async function chunkRows(itemId: number) {
  return (
    await database.query<{
      id: number;
      content: string;
      language: string | null;
      ts_config: number;
      token_count: number;
    }>(
      'SELECT id, content, language, ts_config, token_count FROM knowledge_chunks WHERE item_id = $1 ORDER BY ordinal',
      [itemId],
    )
  ).rows;
}

describe('indexItem', () => {
  it('writes chunks with stemmed postings and detects the language', async () => {
    const { applicationId } = await insertApplication(database);
    const itemId = await insertItem(database, applicationId, 'Glaciers');
    const result = await indexItem(ctx, {
      applicationId,
      itemId,
      document: textDocument('Glaciers', ENGLISH),
      llmModels: DEFAULT_LLM_MODELS,
    });
    expect(result).toEqual({ chunkCount: 1, language: 'en' });
    const [chunk] = await chunkRows(itemId);
    expect(chunk?.content).toBe(ENGLISH);
    expect(chunk?.language).toBe('en');
    const postings = (
      await database.query<{ lexeme: string; tf: number }>(
        'SELECT lexeme, tf FROM knowledge_postings WHERE chunk_id = $1 ORDER BY lexeme',
        [chunk!.id],
      )
    ).rows;
    // English stemming: "glaciers" → "glacier"; the title is indexed with the chunk (tf 3).
    expect(postings.find((p) => p.lexeme === 'glacier')?.tf).toBe(3);
    expect(postings.some((p) => p.lexeme === 'the')).toBe(false);
    expect(chunk?.token_count).toBe(postings.reduce((sum, p) => sum + p.tf, 0));
  });

  it('replaces the earlier chunks of the item when indexed again, and deletes them', async () => {
    const { applicationId } = await insertApplication(database);
    const itemId = await insertItem(database, applicationId, 'Notes');
    await indexItem(ctx, {
      applicationId,
      itemId,
      document: textDocument('Notes', 'First version about volcanoes.'),
      llmModels: DEFAULT_LLM_MODELS,
    });
    await indexItem(ctx, {
      applicationId,
      itemId,
      document: textDocument('Notes', 'Second version about tectonic plates.'),
      llmModels: DEFAULT_LLM_MODELS,
    });
    const rows = await chunkRows(itemId);
    expect(rows.map((r) => r.content)).toEqual(['Second version about tectonic plates.']);
    const stale = await database.query(
      `SELECT 1 FROM knowledge_postings p JOIN knowledge_chunks c ON c.id = p.chunk_id WHERE c.item_id = $1 AND p.lexeme LIKE 'volcano%'`,
      [itemId],
    );
    expect(stale.rows).toHaveLength(0);
    await deleteItemChunks(database, itemId);
    expect(await chunkRows(itemId)).toHaveLength(0);
    expect(
      (await database.query('SELECT 1 FROM knowledge_postings WHERE application_id = $1', [applicationId]))
        .rows,
    ).toHaveLength(0);
  });

  it('refuses an item of another application and writes nothing', async () => {
    const a = await insertApplication(database);
    const b = await insertApplication(database);
    const itemId = await insertItem(database, a.applicationId, 'Mine');
    await expect(
      indexItem(ctx, {
        applicationId: b.applicationId,
        itemId,
        document: textDocument('Mine', ENGLISH),
        llmModels: DEFAULT_LLM_MODELS,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await chunkRows(itemId)).toHaveLength(0);
  });

  it('reports progress ending at 1', async () => {
    const { applicationId } = await insertApplication(database);
    const itemId = await insertItem(database, applicationId, 'Progress');
    const seen: number[] = [];
    await indexItem(ctx, {
      applicationId,
      itemId,
      document: textDocument('Progress', ENGLISH),
      llmModels: DEFAULT_LLM_MODELS,
      onProgress: async (f) => {
        seen.push(f);
      },
    });
    expect(seen.at(-1)).toBe(1);
  });

  it('keeps the BM25 collection statistics through re-indexing and cascading deletes', async () => {
    const { applicationId } = await insertApplication(database);
    const stats = async () =>
      (
        await database.query<{ chunk_count: number; token_total: number }>(
          'SELECT chunk_count::int, token_total::int FROM knowledge_index_stats WHERE application_id = $1',
          [applicationId],
        )
      ).rows[0];
    const actual = async () =>
      (
        await database.query<{ chunk_count: number; token_total: number }>(
          'SELECT count(*)::int AS chunk_count, coalesce(sum(token_count), 0)::int AS token_total FROM knowledge_chunks WHERE application_id = $1',
          [applicationId],
        )
      ).rows[0];
    const first = await insertItem(database, applicationId, 'One');
    const second = await insertItem(database, applicationId, 'Two');
    const long = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i} talks about rivers and their deltas.`,
    ).join('\n\n');
    for (const itemId of [first, second]) {
      await indexItem(ctx, {
        applicationId,
        itemId,
        document: textDocument('X', long),
        llmModels: DEFAULT_LLM_MODELS,
      });
    }
    await indexItem(ctx, {
      applicationId,
      itemId: first,
      document: textDocument('X', ENGLISH),
      llmModels: DEFAULT_LLM_MODELS,
    });
    expect(await stats()).toEqual(await actual());
    expect((await stats())?.chunk_count).toBeGreaterThan(1);
    await database.query('DELETE FROM knowledge_items WHERE id = $1', [second]);
    expect(await stats()).toEqual(await actual());
    await deleteItemChunks(database, first);
    expect(await stats()).toEqual({ chunk_count: 0, token_total: 0 });
  });
});

describe('indexReadyItems', () => {
  it('indexes and readies, in one statement, only the items still held under the lease', async () => {
    const { userId, applicationId } = await insertApplication(database);
    const ids = [];
    for (const title of ['Glaciers', 'Reaped', 'Deleted', 'Plain'])
      ids.push(await insertItem(database, applicationId, title));
    await database.query(`UPDATE knowledge_items SET lease = 'batch' WHERE id = ANY($1)`, [ids]);
    // Mid-batch, one item was reaped and claimed by another worker, one was deleted.
    await database.query(`UPDATE knowledge_items SET lease = 'other' WHERE id = $1`, [ids[1]]);
    await database.query('DELETE FROM knowledge_items WHERE id = $1', [ids[2]]);
    const items = await Promise.all(
      ids.map(async (itemId, i) => ({
        itemId,
        title: `Title ${i}`,
        mimeType: 'text/markdown',
        readWithOcr: false,
        chunks: await prepareChunks(textDocument(`Title ${i}`, ENGLISH), null),
      })),
    );
    const owner = { ownerId: userId, applicationUuid: 'the-application' };
    const { ready, outboxId } = await indexReadyItems(database, {
      owner,
      applicationId,
      lease: 'batch',
      embedder: null,
      items,
    });
    expect(ready.map((row) => row.id).sort()).toEqual([ids[0], ids[3]].sort());
    // Their `knowledge.items.ended` was written by the same statement, with the rows as drizzle reads them.
    const [outbox] = (
      await database.query<{ events: string }>(
        'SELECT events::text AS events FROM product_outbox WHERE id = $1',
        [outboxId],
      )
    ).rows;
    const [ended] = fromJson(outbox!.events);
    expect(ended).toEqual({ type: 'knowledge.items.ended', payload: { owner, items: ready } });
    const [fromDrizzle] = await database.db
      .select()
      .from(knowledgeItems)
      .where(eq(knowledgeItems.id, ids[0]!));
    expect(ready[0]).toEqual(fromDrizzle);
    const { rows } = await database.query<{
      id: number;
      status: string;
      lease: string | null;
      title: string;
      chunk_count: number;
      language: string | null;
    }>(
      'SELECT id, status, lease, title, chunk_count, language FROM knowledge_items WHERE id = ANY($1) ORDER BY id',
      [ids],
    );
    expect(rows.map((r) => [r.status, r.lease, r.title, r.chunk_count, r.language])).toEqual([
      ['ready', null, 'Title 0', 1, 'en'],
      ['processing', 'other', 'Reaped', 0, null],
      ['ready', null, 'Title 3', 1, 'en'],
    ]);
    expect((await chunkRows(ids[0]!)).length).toBe(1);
    expect(await chunkRows(ids[1]!)).toEqual([]);
    expect(await chunkRows(ids[2]!)).toEqual([]);
  });
});
