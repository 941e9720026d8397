import type { Database } from '@cairn/db/client';
import { sql } from 'drizzle-orm';
import type { RankedChunk } from './retrieve.ts';
import { rowsOf } from './sql-rows.ts';

/**
 * Dimensions with a partial HNSW index (migration 0007_vector-indexes). The query must repeat the
 * index's expression and predicate exactly for the planner to use it; other sizes are scanned.
 */
const HALFVEC_DIMENSIONS = new Set([3072]);

/** pgvector's own limits on what a `vector` / `halfvec` can hold. */
const MAX_DIMENSIONS = 16000;

export interface VectorQuery {
  applicationId: number;
  modelId: string;
  vector: number[];
  limit: number;
}

/**
 * Chunks of one application embedded by one model, nearest first (cosine distance). Scoped
 * filtering after an approximate index can leave too few rows, so pgvector's iterative scan keeps
 * walking the graph until `limit` rows of this application are found. Chunks of switched-off items
 * are skipped as the scan goes (decision 071).
 */
export async function vectorSearch(database: Database, query: VectorQuery): Promise<RankedChunk[]> {
  const dims = query.vector.length;
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMENSIONS) return [];
  // `dims` is a checked integer, so inlining it (needed to match the index expression) is safe.
  const type = HALFVEC_DIMENSIONS.has(dims) ? `halfvec(${dims})` : `vector(${dims})`;
  const distance = sql.raw(`(embedding::${type}) <=> `);
  const literal = JSON.stringify(query.vector);
  const rows = await database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL hnsw.iterative_scan = strict_order`);
    return rowsOf<{ id: number; distance: number | string }>(
      await tx.execute(sql`
        SELECT chunk_id AS id, ${distance}${literal}::${sql.raw(type)} AS distance
        FROM knowledge_chunk_vectors
        WHERE dimensions = ${sql.raw(String(dims))}
          AND application_id = ${query.applicationId} AND model_id = ${query.modelId}
          AND NOT EXISTS (
            SELECT 1 FROM knowledge_chunks c JOIN knowledge_items i ON i.id = c.item_id
            WHERE c.id = knowledge_chunk_vectors.chunk_id AND NOT i.enabled)
        ORDER BY ${distance}${literal}::${sql.raw(type)}
        LIMIT ${query.limit}`),
    );
  });
  return rows.map((row) => ({ id: Number(row.id), score: 1 - Number(row.distance) }));
}
