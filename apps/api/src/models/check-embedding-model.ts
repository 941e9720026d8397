import { APICallError } from '@ai-sdk/provider';
import type { TLlmModel } from '@cairn/contracts/applications';
import { fieldError } from '../lib/app-error.ts';
import type { ModelCtx } from '../lib/ctx.ts';
import { isBuiltinEmbedding } from './builtin-embedder.ts';
import { ModelProviderError } from './provider-errors.ts';
import { resolveProviderEmbedder } from './resolve-embedder.ts';

/** A person is waiting on the save: one try, and an answer well before a proxy gives up. */
const CHECK_TIMEOUT_MS = 20_000;

/**
 * Embeds one text with a provider's embedding model before an application switches to it, so a
 * model the provider does not serve (or a bad key, an unreachable server …) is refused on save
 * with the provider's answer, instead of failing every knowledge item later and leaving the
 * application without search. The built-in embedding needs no check.
 */
export async function checkEmbeddingModel(ctx: ModelCtx, model: TLlmModel): Promise<void> {
  if (isBuiltinEmbedding(model)) return;
  try {
    await resolveProviderEmbedder(ctx, model, {
      verify: true,
      maxRetries: 0,
      timeoutMs: CHECK_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof ModelProviderError)) throw error;
    const said = providerSaid(error.cause);
    throw fieldError(
      'llm_models',
      `The embedding model "${model.name}" did not work: ${error.message}${said ? ` The provider said: "${said}"` : ''}`,
    );
  }
}

/** The provider's own words from its error answer (one line, capped), when it gave any. */
function providerSaid(cause: unknown): string | null {
  if (!APICallError.isInstance(cause)) return null;
  const text = cause.message.replace(/\s+/g, ' ').trim();
  if (!text || /^(Not Found|Unauthorized|Forbidden|Bad Request)$/i.test(text)) return null;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
