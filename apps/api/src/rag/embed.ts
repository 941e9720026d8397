import type { TLlmModel } from '@cairn/contracts/applications';
import { AppError } from '../lib/app-error.ts';
import type { ModelCtx } from '../lib/ctx.ts';
import { isBuiltinEmbedding } from '../models/builtin-embedder.ts';
import { resolveProviderEmbedder } from '../models/resolve-embedder.ts';
import type { Embedder } from '../models/types.ts';

/** Texts sent to a provider per request: a few chunks of text, well under providers' input caps. */
export const EMBED_BATCH_SIZE = 64;

/** The application's selected embedding model: the first `embedding` entry of its models. */
export function selectedEmbeddingModel(llmModels: TLlmModel[]): TLlmModel | undefined {
  return llmModels.find((model) => model.model_type === 'embedding');
}

/**
 * The application's embedding model as an `Embedder`, or null when retrieval is lexical only:
 * the built-in default (which has no vectors) or no embedding model at all.
 */
export async function resolveEmbedder(ctx: ModelCtx, llmModels: TLlmModel[]): Promise<Embedder | null> {
  const ref = selectedEmbeddingModel(llmModels);
  if (!ref || isBuiltinEmbedding(ref)) return null;
  return resolveProviderEmbedder(ctx, ref);
}

/**
 * Embeds texts in batches, reporting progress after each, and checks what comes back: a provider
 * answering with the wrong count or dimension would otherwise corrupt the index silently.
 */
export async function embedInBatches(
  embedder: Embedder,
  texts: string[],
  onProgress?: (fraction: number) => Promise<void>,
): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH_SIZE) {
    const batch = texts.slice(i, i + EMBED_BATCH_SIZE);
    const out = await embedder.embed(batch);
    if (out.length !== batch.length) {
      throw new AppError(
        'internal',
        `The embedding model returned ${out.length} vectors for ${batch.length} texts.`,
      );
    }
    for (const vector of out) {
      if (vector.length !== embedder.dimensions || !vector.every(Number.isFinite)) {
        throw new AppError(
          'internal',
          `The embedding model returned a vector of ${vector.length} dimensions; ${embedder.dimensions} were expected.`,
        );
      }
      vectors.push(vector);
    }
    await onProgress?.(vectors.length / texts.length);
  }
  return vectors;
}
