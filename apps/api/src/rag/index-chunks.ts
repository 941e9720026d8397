import type { TLlmModel } from '@cairn/contracts/applications';
import type { Database } from '@cairn/db/client';
import type { knowledgeItems } from '@cairn/db/schema';
import { AppError } from '../lib/app-error.ts';
import type { ModelCtx } from '../lib/ctx.ts';
import { type ItemOwner, rowAsJson, rowFromDatabase } from '../lib/product-events.ts';
import type { Embedder } from '../models/types.ts';
import { chunkDocument, documentText } from './chunk.ts';
import { embedInBatches, resolveEmbedder } from './embed.ts';
import { detectLanguage, TEXT_SEARCH_CONFIGS, textSearchConfigFor } from './language.ts';
import type { ParsedDocument } from './types.ts';

export interface IndexItemInput {
  applicationId: number;
  itemId: number;
  document: ParsedDocument;
  llmModels: TLlmModel[];
  /** Called with 0–1 as the work advances (embedding dominates when there is a model). */
  onProgress?: (fraction: number) => Promise<void>;
}

/**
 * Chunks, embeds and indexes one item, replacing whatever was indexed for it before. Embedding
 * (network calls to a provider) happens before the transaction; the writes are one transaction,
 * so a crash leaves the item either fully indexed the old way or the new way, never half.
 */
export async function indexItem(
  ctx: ModelCtx,
  input: IndexItemInput,
): Promise<{ chunkCount: number; language?: string }> {
  return indexItemWith(ctx.database, input, await resolveEmbedder(ctx, input.llmModels));
}

/** An item's chunks, ready to be written: language, text-search configuration and vectors decided. */
export interface PreparedChunks {
  chunkCount: number;
  language?: string;
  tsConfig: number;
  rows: Array<{
    ordinal: number;
    content: string;
    page: number | null;
    heading: string | null;
    start_offset: number;
    end_offset: number;
    embedding: string | null;
  }>;
}

/** Chunks a document, detects its language and embeds the chunks (network calls, before any write). */
export async function prepareChunks(
  document: ParsedDocument,
  embedder: Embedder | null,
  onProgress?: (fraction: number) => Promise<void>,
): Promise<PreparedChunks> {
  const chunks = chunkDocument(document);
  const language = document.language ?? (await detectLanguage(documentText(document)));
  const vectors = embedder
    ? await embedInBatches(
        embedder,
        chunks.map((chunk) => (chunk.heading ? `${chunk.heading}\n\n${chunk.content}` : chunk.content)),
        onProgress,
      )
    : null;
  const rows = chunks.map((chunk, i) => ({
    ordinal: chunk.ordinal,
    content: chunk.content,
    page: chunk.page,
    heading: chunk.heading,
    start_offset: chunk.startOffset,
    end_offset: chunk.endOffset,
    embedding: vectors ? JSON.stringify(vectors[i]) : null,
  }));
  const prepared = { chunkCount: chunks.length, tsConfig: textSearchConfigFor(language), rows };
  return language ? { ...prepared, language } : prepared;
}

/** `indexItem` with the embedding model already resolved (null: lexical only). */
export async function indexItemWith(
  database: Database,
  input: IndexItemInput,
  embedder: Embedder | null,
): Promise<{ chunkCount: number; language?: string }> {
  const prepared = await prepareChunks(
    input.document,
    embedder,
    input.onProgress ? (fraction) => input.onProgress!(fraction * 0.9) : undefined,
  );
  const { tsConfig, language } = prepared;

  // One statement, so it is atomic without an explicit transaction, and costs one round trip
  // (PGlite pays per statement). Every write goes through `item`: if the item is gone or belongs
  // to another application, nothing is written. The old chunks' postings and vectors cascade.
  // The item title and heading path are indexed with every chunk: they name what it is about.
  const { rows: result } = await database.query<{ found: number }>(
    `WITH item AS (
       SELECT id, application_id, title FROM knowledge_items
       WHERE id = $1 AND application_id = $2 FOR UPDATE
     ),
     removed AS (DELETE FROM knowledge_chunks WHERE item_id = (SELECT id FROM item)),
     added AS (
       INSERT INTO knowledge_chunks
         (item_id, application_id, ordinal, content, page, heading, start_offset, end_offset,
          language, ts_config, token_count, tsv)
       SELECT item.id, item.application_id, x.ordinal, x.content, x.page, x.heading,
              x.start_offset, x.end_offset, $4, $5::smallint,
              (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(t.tsv) u), t.tsv
       FROM item
       CROSS JOIN jsonb_to_recordset($3::jsonb) AS x(
         ordinal int, content text, page int, heading text, start_offset int, end_offset int)
       CROSS JOIN LATERAL (
         SELECT to_tsvector($6::regconfig, concat_ws(' ', item.title, x.heading, x.content)) AS tsv
       ) t
       RETURNING id, application_id, ordinal, ts_config, token_count, tsv
     ),
     ${POSTINGS_CTE},
     vectors AS (
       INSERT INTO knowledge_chunk_vectors (chunk_id, application_id, model_id, dimensions, embedding)
       SELECT a.id, a.application_id, $7, $8, v.embedding::vector
       FROM added a JOIN jsonb_to_recordset($3::jsonb) AS v(ordinal int, embedding text)
         ON v.ordinal = a.ordinal
       WHERE v.embedding IS NOT NULL
     )
     SELECT count(*)::int AS found FROM item`,
    [
      input.itemId,
      input.applicationId,
      JSON.stringify(prepared.rows),
      language ?? null,
      tsConfig,
      TEXT_SEARCH_CONFIGS[tsConfig],
      embedder?.id ?? null,
      embedder?.dimensions ?? null,
    ],
  );
  if (!result[0]?.found) throw new AppError('not_found', 'The knowledge item no longer exists.');
  await input.onProgress?.(1);
  return language ? { chunkCount: prepared.chunkCount, language } : { chunkCount: prepared.chunkCount };
}

/** The postings of the chunks a statement's `added` step inserted (one row per chunk and lexeme). */
export const POSTINGS_CTE = `postings AS (
       INSERT INTO knowledge_postings (application_id, ts_config, lexeme, chunk_id, tf, chunk_length)
       SELECT a.application_id, a.ts_config, u.lexeme, a.id, cardinality(u.positions), a.token_count
       FROM added a CROSS JOIN LATERAL unnest(a.tsv) u
     )`;

type ItemRow = typeof knowledgeItems.$inferSelect;

/** One item of `indexReadyItems`: what the worker parsed and prepared for it. */
export interface ReadyItemInput {
  itemId: number;
  /** The document's title (indexed with every chunk, and written to the item). */
  title: string;
  mimeType: string | null;
  /** Its text was read with OCR (written to the item). */
  readWithOcr: boolean;
  chunks: PreparedChunks;
}

/**
 * Indexes several items of one application and marks them `ready`, all in one statement: each
 * item is either fully indexed and ready or untouched (still `processing`, re-runnable), never
 * half-indexed. Only items still held under `lease` are written. Resolves to the rows made ready and
 * the outbox row of their `knowledge.items.ended` (decision 085), written by the same statement so
 * the owner's webhooks hear of exactly what committed; the caller tells it (`events.written`).
 * Small items cost one statement per batch instead of one index and one status write each.
 */
export async function indexReadyItems(
  database: Database,
  input: {
    owner: ItemOwner;
    applicationId: number;
    lease: string;
    embedder: Embedder | null;
    items: ReadyItemInput[];
  },
): Promise<{ ready: ItemRow[]; outboxId: number | null }> {
  if (input.items.length === 0) return { ready: [], outboxId: null };
  const items = input.items.map((item) => ({
    item_id: item.itemId,
    title: item.title,
    mime_type: item.mimeType,
    read_with_ocr: item.readWithOcr,
    language: item.chunks.language ?? null,
    ts_config: item.chunks.tsConfig,
    regconfig: TEXT_SEARCH_CONFIGS[item.chunks.tsConfig],
    chunk_count: item.chunks.chunkCount,
  }));
  const chunks = input.items.flatMap((item) =>
    item.chunks.rows.map((row) => ({ item_id: item.itemId, ...row })),
  );
  const { rows } = await database.query<Record<string, unknown>>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(
         item_id int, title text, mime_type text, read_with_ocr boolean, language text,
         ts_config smallint, regconfig text, chunk_count int)
     ),
     item AS (
       SELECT k.id, k.application_id, i.title, i.mime_type, i.read_with_ocr, i.language, i.ts_config,
              i.regconfig::regconfig AS regconfig, i.chunk_count
       FROM knowledge_items k JOIN input i ON i.item_id = k.id
       WHERE k.application_id = $2 AND k.lease = $3
       FOR UPDATE OF k
     ),
     removed AS (DELETE FROM knowledge_chunks WHERE item_id IN (SELECT id FROM item)),
     added AS (
       INSERT INTO knowledge_chunks
         (item_id, application_id, ordinal, content, page, heading, start_offset, end_offset,
          language, ts_config, token_count, tsv)
       SELECT item.id, item.application_id, x.ordinal, x.content, x.page, x.heading,
              x.start_offset, x.end_offset, item.language, item.ts_config,
              (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(t.tsv) u), t.tsv
       FROM jsonb_to_recordset($4::jsonb) AS x(
         item_id int, ordinal int, content text, page int, heading text, start_offset int, end_offset int)
       JOIN item ON item.id = x.item_id
       CROSS JOIN LATERAL (
         SELECT to_tsvector(item.regconfig, concat_ws(' ', item.title, x.heading, x.content)) AS tsv
       ) t
       RETURNING id, item_id, application_id, ordinal, ts_config, token_count, tsv
     ),
     ${POSTINGS_CTE},
     vectors AS (
       INSERT INTO knowledge_chunk_vectors (chunk_id, application_id, model_id, dimensions, embedding)
       SELECT a.id, a.application_id, $5, $6, v.embedding::vector
       FROM added a JOIN jsonb_to_recordset($4::jsonb) AS v(item_id int, ordinal int, embedding text)
         ON v.item_id = a.item_id AND v.ordinal = a.ordinal
       WHERE v.embedding IS NOT NULL
     ),
     ready AS (
       UPDATE knowledge_items k
       SET status = 'ready', progress = 100, error = NULL, lease = NULL, title = item.title,
           mime_type = coalesce(item.mime_type, k.mime_type), read_with_ocr = item.read_with_ocr,
           chunk_count = item.chunk_count,
           language = item.language, indexed_at = now(), heartbeat_at = now(), updated_at = now()
       FROM item WHERE k.id = item.id
       RETURNING k.*
     ),
     outbox AS (
       INSERT INTO product_outbox (events)
       SELECT jsonb_build_array(jsonb_build_object('type', 'knowledge.items.ended', 'payload',
         jsonb_build_object('owner', $7::jsonb, 'items', jsonb_agg(${rowAsJson('knowledgeItems', 'ready')} ORDER BY ready.id))))
       FROM ready HAVING count(*) > 0
       RETURNING id
     )
     SELECT ready.*, (SELECT id FROM outbox) AS outbox_id FROM ready ORDER BY ready.id`,
    [
      JSON.stringify(items),
      input.applicationId,
      input.lease,
      JSON.stringify(chunks),
      input.embedder?.id ?? null,
      input.embedder?.dimensions ?? null,
      JSON.stringify(input.owner),
    ],
  );
  return {
    ready: rows.map((row) => rowFromDatabase('knowledgeItems', row)),
    outboxId: rows[0] ? Number(rows[0].outbox_id) : null,
  };
}

/** Removes everything indexed for an item (its chunks; postings and vectors cascade). */
export async function deleteItemChunks(database: Database, itemId: number): Promise<void> {
  await database.query('DELETE FROM knowledge_chunks WHERE item_id = $1', [itemId]);
}
