import type { TLlmModel } from '@cairn/contracts/applications';
import type { Database } from '@cairn/db/client';
import { AppError } from '../lib/app-error.ts';
import { chunkDocument, documentText } from './chunk.ts';
import { embedInBatches, resolveEmbedder } from './embed.ts';
import { detectLanguage, TEXT_SEARCH_CONFIGS, textSearchConfigFor } from './language.ts';
import type { Embedder, ParsedDocument } from './types.ts';

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
  database: Database,
  input: IndexItemInput,
): Promise<{ chunkCount: number; language?: string }> {
  return indexItemWith(database, input, await resolveEmbedder(database, input.llmModels));
}

/** `indexItem` with the embedding model already resolved (null: lexical only). */
export async function indexItemWith(
  database: Database,
  input: IndexItemInput,
  embedder: Embedder | null,
): Promise<{ chunkCount: number; language?: string }> {
  const chunks = chunkDocument(input.document);
  const language = input.document.language ?? detectLanguage(documentText(input.document));
  const tsConfig = textSearchConfigFor(language);
  const vectors = embedder
    ? await embedInBatches(
        embedder,
        chunks.map((chunk) => (chunk.heading ? `${chunk.heading}\n\n${chunk.content}` : chunk.content)),
        input.onProgress ? (fraction) => input.onProgress!(fraction * 0.9) : undefined,
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
     postings AS (
       INSERT INTO knowledge_postings (application_id, ts_config, lexeme, chunk_id, tf, chunk_length)
       SELECT a.application_id, a.ts_config, u.lexeme, a.id, cardinality(u.positions), a.token_count
       FROM added a CROSS JOIN LATERAL unnest(a.tsv) u
     ),
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
      JSON.stringify(rows),
      language ?? null,
      tsConfig,
      TEXT_SEARCH_CONFIGS[tsConfig],
      embedder?.id ?? null,
      embedder?.dimensions ?? null,
    ],
  );
  if (!result[0]?.found) throw new AppError('not_found', 'The knowledge item no longer exists.');
  await input.onProgress?.(1);
  return language ? { chunkCount: chunks.length, language } : { chunkCount: chunks.length };
}

/** Removes everything indexed for an item (its chunks; postings and vectors cascade). */
export async function deleteItemChunks(database: Database, itemId: number): Promise<void> {
  await database.query('DELETE FROM knowledge_chunks WHERE item_id = $1', [itemId]);
}
