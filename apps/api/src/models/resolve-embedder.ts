import type { TLlmModel } from '@cairn/contracts/applications';
import { providerModels } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { ModelCtx } from '../lib/ctx.ts';
import { loadProviderModel } from './load-provider-model.ts';
import { ModelProviderError, toModelProviderError } from './provider-errors.ts';
import { embeddingModelFor, loadAiSdk } from './provider-sdk.ts';
import type { Embedder } from './types.ts';

export const EMBED_TIMEOUT_MS = 60_000;
const PROBE_TEXT = 'dimension probe';

/**
 * A provider's embedding model (its OpenAI-compatible `/embeddings`) as an `Embedder`. The ref was
 * checked against its owner when it was attached to the application, so it is looked up by uuid
 * alone. The vector size is learnt from the first answer and kept on the model row. Failures are
 * ModelProviderErrors with messages a person understands (bad key, rate limit, unknown model …).
 */
export async function resolveProviderEmbedder(
  ctx: ModelCtx,
  ref: TLlmModel,
  options: {
    timeoutMs?: number;
    maxRetries?: number;
    /** Embed one text now even when the vector size is known: the model is being chosen (a check). */
    verify?: boolean;
  } = {},
): Promise<Embedder> {
  if (ref.model_type !== 'embedding') {
    throw new ModelProviderError('not_configured', `"${ref.name}" is not an embedding model.`);
  }
  const { provider, model } = await loadProviderModel(ctx, ref.uuid, 'embedding');
  const [embeddingModel, { embedMany }] = await Promise.all([
    embeddingModelFor(provider, model.name),
    loadAiSdk(),
  ]);
  const timeoutMs = options.timeoutMs ?? EMBED_TIMEOUT_MS;
  const context = { provider: provider.name, model: model.name, baseUrl: provider.baseUrl, timeoutMs };

  const embed = async (texts: string[]): Promise<number[][]> => {
    if (!texts.length) return [];
    try {
      const { embeddings } = await embedMany({
        model: embeddingModel,
        values: texts,
        maxRetries: options.maxRetries ?? 2,
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
      return embeddings;
    } catch (error) {
      throw toModelProviderError(error, context);
    }
  };

  let dimensions = model.dimensions;
  if (!dimensions || options.verify) {
    const [probe] = await embed([PROBE_TEXT]);
    dimensions = probe?.length ?? 0;
    if (!dimensions) {
      throw new ModelProviderError(
        'provider_error',
        `The model "${model.name}" returned an empty embedding.`,
      );
    }
    if (dimensions !== model.dimensions) {
      await ctx.database.db.update(providerModels).set({ dimensions }).where(eq(providerModels.id, model.id));
    }
  }
  return { id: `${provider.kind}:${model.name}:${model.uuid}`, dimensions, embed };
}
