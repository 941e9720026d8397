import type { TLlmModel } from '@cairn/contracts/applications';

/**
 * The built-in "embedding model" is no embedding model: Cairn ships none (see
 * docs/decisions/020-builtin-retrieval.md). No package we can install carries the weights of a
 * real sentence-embedding model, and loading them from a model hub at run time would need a
 * network the product must not depend on; a hashed bag of words posing as vectors would be a fake
 * embedding (DESIGN §5). So the built-in default retrieves lexically only, by BM25 over stemmed
 * lexemes, and says so in its name ("Built-in keyword search (no vectors)").
 */
export const BUILTIN_RETRIEVAL = {
  id: 'builtin-lexical',
  description: 'Keyword search (BM25 with per-language stemming) without vectors.',
} as const;

/** Whether a model ref is the built-in one, which produces no vectors. */
export function isBuiltinEmbedding(ref: TLlmModel): boolean {
  return ref.provider === 'builtin';
}
