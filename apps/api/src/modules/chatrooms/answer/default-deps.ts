import { resolveTextModel } from '../../../models/resolve-text-model.ts';
import { retrieve } from '../../../rag/retrieve.ts';
import type { AnswerDeps } from './answer-message.ts';

/** The real collaborators: hybrid retrieval and the owner's configured model providers. */
export function defaultAnswerDeps(providerIdleTimeoutMs?: number): AnswerDeps {
  return {
    retrieve,
    resolveTextModel: (ctx, ownerId, ref) =>
      resolveTextModel(
        ctx,
        ownerId,
        ref,
        providerIdleTimeoutMs ? { idleTimeoutMs: providerIdleTimeoutMs } : {},
      ),
  };
}
