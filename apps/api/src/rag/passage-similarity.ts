import type { TLlmModel } from '@cairn/contracts/applications';
import type { Database } from '@cairn/db/client';
import type { ModelCtx } from '../lib/ctx.ts';
import type { Embedder } from '../models/types.ts';
import { resolveEmbedder } from './embed.ts';

/**
 * Cosine similarity of the question with each given chunk, by the application's embedding model,
 * from the stored vectors; undefined when the application has no vectors (the built-in model).
 */
export async function passageSimilarity(
  ctx: ModelCtx,
  application: { id: number; llmModels: TLlmModel[] },
  question: string,
  chunkIds: number[],
): Promise<Map<number, number> | undefined> {
  if (!chunkIds.length) return undefined;
  const embedder = await resolveEmbedder(ctx, application.llmModels);
  if (!embedder) return undefined;
  return similarityBy(ctx.database, application.id, embedder, question, chunkIds);
}

/** `passageSimilarity` with the embedding model already resolved. */
export async function similarityBy(
  database: Database,
  applicationId: number,
  embedder: Embedder,
  question: string,
  chunkIds: number[],
): Promise<Map<number, number> | undefined> {
  if (!chunkIds.length) return undefined;
  const [vector] = await embedder.embed([question]);
  if (!vector?.length || !vector.every(Number.isFinite)) return undefined;
  const { rows } = await database.query<{ chunk_id: number; similarity: number | string }>(
    `SELECT chunk_id, 1 - (embedding <=> $1::vector) AS similarity
     FROM knowledge_chunk_vectors
     WHERE application_id = $2 AND model_id = $3 AND dimensions = $4 AND chunk_id = ANY($5::int[])`,
    [JSON.stringify(vector), applicationId, embedder.id, vector.length, chunkIds],
  );
  return new Map(rows.map((row) => [Number(row.chunk_id), Number(row.similarity)]));
}
