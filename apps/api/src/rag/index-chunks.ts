import type { TLlmModel } from '@cairn/contracts/applications';
import type { Database } from '@cairn/db/client';
import { sql } from 'drizzle-orm';
import { AppError } from '../lib/app-error.ts';
import { chunkDocument, documentText } from './chunk.ts';
import { embedInBatches, resolveEmbedder } from './embed.ts';
import { detectLanguage, TEXT_SEARCH_CONFIGS, textSearchConfigFor } from './language.ts';
import { rowsOf } from './sql-rows.ts';
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

  await database.db.transaction(async (tx) => {
    const item = rowsOf<{ title: string }>(
      await tx.execute(sql`
        SELECT title FROM knowledge_items
        WHERE id = ${input.itemId} AND application_id = ${input.applicationId}
        FOR UPDATE`),
    );
    if (!item[0]) throw new AppError('not_found', 'The knowledge item no longer exists.');
    await tx.execute(sql`DELETE FROM knowledge_chunks WHERE item_id = ${input.itemId}`);
    if (rows.length === 0) return;
    // The item title and heading path are indexed with every chunk: they name what it is about.
    await tx.execute(sql`
      INSERT INTO knowledge_chunks
        (item_id, application_id, ordinal, content, page, heading, start_offset, end_offset,
         language, ts_config, token_count, tsv)
      SELECT ${input.itemId}, ${input.applicationId}, x.ordinal, x.content, x.page, x.heading,
             x.start_offset, x.end_offset, ${language ?? null}, ${tsConfig},
             (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(t.tsv) u), t.tsv
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(
             ordinal int, content text, page int, heading text, start_offset int, end_offset int)
      CROSS JOIN LATERAL (
        SELECT to_tsvector(${TEXT_SEARCH_CONFIGS[tsConfig]}::regconfig,
                           concat_ws(' ', ${item[0].title}::text, x.heading, x.content)) AS tsv
      ) t`);
    await tx.execute(sql`
      INSERT INTO knowledge_postings (application_id, ts_config, lexeme, chunk_id, tf, chunk_length)
      SELECT c.application_id, c.ts_config, u.lexeme, c.id, cardinality(u.positions), c.token_count
      FROM knowledge_chunks c CROSS JOIN LATERAL unnest(c.tsv) u
      WHERE c.item_id = ${input.itemId}`);
    if (embedder) await writeVectors(tx, input, embedder, rows);
  });
  await input.onProgress?.(1);
  return language ? { chunkCount: chunks.length, language } : { chunkCount: chunks.length };
}

type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

async function writeVectors(
  tx: Tx,
  input: IndexItemInput,
  embedder: Embedder,
  rows: Array<{ ordinal: number; embedding: string | null }>,
): Promise<void> {
  const vectors = rows.map((row) => ({ ordinal: row.ordinal, embedding: row.embedding }));
  await tx.execute(sql`
    INSERT INTO knowledge_chunk_vectors (chunk_id, application_id, model_id, dimensions, embedding)
    SELECT c.id, c.application_id, ${embedder.id}, ${embedder.dimensions}, v.embedding::vector
    FROM jsonb_to_recordset(${JSON.stringify(vectors)}::jsonb) AS v(ordinal int, embedding text)
    JOIN knowledge_chunks c ON c.item_id = ${input.itemId} AND c.ordinal = v.ordinal`);
}

/** Removes everything indexed for an item (its chunks; postings and vectors cascade). */
export async function deleteItemChunks(database: Database, itemId: number): Promise<void> {
  await database.db.execute(sql`DELETE FROM knowledge_chunks WHERE item_id = ${itemId}`);
}
