import type {
  TKnowledgeSearchRequest,
  TKnowledgeSearchResponse,
  TKnowledgeSearchResult,
} from '@cairn/contracts/knowledge-search';
import type { Ctx } from '../../lib/ctx.ts';
import { findApplication } from '../../lib/find-application.ts';
import type { Embedder } from '../../models/types.ts';
import { resolveEmbedder } from '../../rag/embed.ts';
import { similarityBy } from '../../rag/passage-similarity.ts';
import { candidatesFor, retrieveWith } from '../../rag/retrieve.ts';
import { termStatistics } from '../../rag/term-statistics.ts';
import type { Passage } from '../../rag/types.ts';
import { RANKED_K, TOP_K } from '../chatrooms/answer/answer-message.ts';
import { judgeRelevance, sameTerm, type WeightedTerm } from '../chatrooms/answer/relevance.ts';
import { termsOf } from '../chatrooms/answer/terms.ts';

/** The most words a declined decision names. */
const MISSING_MAX = 8;

/**
 * The passages of the caller's application that best answer a query (404 for another's
 * application), each with its relevance as the answers measure it, and what an answer to the
 * query would do: the retrieval test explains itself (decision 071).
 */
export async function searchKnowledge(
  ctx: Ctx,
  ownerId: number,
  appUuid: string,
  input: TKnowledgeSearchRequest,
): Promise<TKnowledgeSearchResponse> {
  const { database } = ctx;
  const found = await findApplication(database.db, ownerId, appUuid);
  const resolved = await resolveEmbedder(ctx, found.llmModels);
  const embedder = resolved && embeddingOnce(resolved);
  // One retrieval serves both when the larger ranks like the answers' own (same candidate count).
  const wanted = Math.max(input.top_k, RANKED_K);
  const passages = await retrieveWith(database, found.id, embedder, input.query, wanted);
  const ranking =
    candidatesFor(wanted) === candidatesFor(RANKED_K)
      ? passages.slice(0, RANKED_K)
      : await retrieveWith(database, found.id, embedder, input.query, RANKED_K);
  const answerPassages = ranking.slice(0, TOP_K);
  const shown = passages.slice(0, input.top_k);
  const read = [...new Map([...shown, ...answerPassages].map((p) => [p.chunk_id, p])).values()];
  const [stats, similarity] = await Promise.all([
    read.length ? termStatistics(database, found.id, input.query) : null,
    embedder
      ? similarityBy(
          database,
          found.id,
          embedder,
          input.query,
          read.map((p) => p.chunk_id),
        )
      : undefined,
  ]);
  // The answers' decision, as answer-message.ts makes it, and every shown passage's coverage.
  const decision = judgeRelevance(input.query, answerPassages, stats, similarity, { ranking });
  const explained = judgeRelevance(input.query, shown, stats, similarity, { ranking: passages });
  const used = new Set(decision.passages.map((p) => p.chunk_id));
  const results: TKnowledgeSearchResult[] = shown.map((p) => ({
    ...p,
    relevance: Math.round((explained.coverage.get(p.chunk_id) ?? 0) * 100),
    used: used.has(p.chunk_id),
  }));
  const best = [...results].sort((a, b) => b.relevance - a.relevance)[0];
  return {
    results,
    decision: {
      answered: decision.covered,
      missing: decision.covered ? [] : missingWords(input.query, explained.weighted, best),
    },
  };
}

/** The embedding model, asked for each text's vector once: retrieval and the decision both need the query's. */
function embeddingOnce(embedder: Embedder): Embedder {
  const vectors = new Map<string, Promise<number[][]>>();
  return {
    id: embedder.id,
    dimensions: embedder.dimensions,
    embed(texts) {
      const key = JSON.stringify(texts);
      let embedded = vectors.get(key);
      if (!embedded) {
        embedded = embedder.embed(texts);
        vectors.set(key, embedded);
      }
      return embedded;
    },
  };
}

/** The question's own words whose terms the passage (with its title and heading) does not hold. */
function missingWords(question: string, weighted: readonly WeightedTerm[], passage: Passage | undefined) {
  const present = passage
    ? termsOf(`${passage.item_title}\n${passage.heading ?? ''}\n${passage.content}`)
    : [];
  const missing = weighted.filter((q) => !present.some((t) => sameTerm(t, q.term))).map((q) => q.term);
  const words = new Map<string, string>();
  for (const word of question.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (termsOf(word).some((term) => missing.includes(term))) words.set(word.toLowerCase(), word);
  }
  return [...words.values()].slice(0, MISSING_MAX);
}
