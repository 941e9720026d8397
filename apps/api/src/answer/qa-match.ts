import type { TLlmModel } from '@cairn/contracts/applications';
import type { TSource } from '@cairn/contracts/chat';
import type { Database } from '@cairn/db/client';
import { jaccard, questionTokens } from '../modules/attention/question-similarity.ts';
import { passageSimilarity } from '../rag/passage-similarity.ts';
import { snippetOf } from './citations.ts';

/**
 * A question is the pair's question (or one of its phrasings) when their meaningful words, folded,
 * overlap at least this much (Jaccard of `questionTokens`): the same words in another order, with
 * other function words or inflections. Calibrated on qa-match.test.ts's table (decision 070).
 */
export const QA_LEXICAL_MATCH = 0.75;
/**
 * With an embedding model, a question whose vector is this close to the pair's indexed chunk
 * (its question, phrasings and answer) matches with fewer shared words, but never with none.
 */
export const QA_VECTOR_MATCH = 0.85;
export const QA_VECTOR_LEXICAL_FLOOR = 0.34;

export interface QaCandidate {
  itemUuid: string;
  itemTitle: string;
  chunkId: number;
  heading: string | null;
  content: string;
  answer: string;
  phrasings: string[];
}

export interface QaMatch extends QaCandidate {
  /** The deciding similarity (0–1): lexical, or the vectors' cosine when they decided. */
  score: number;
}

/** The best-scoring phrasing's lexical similarity to the question. */
export function lexicalScore(question: string, phrasings: readonly string[]): number {
  const asked = questionTokens(question);
  if (!asked.length) return 0;
  return Math.max(0, ...phrasings.map((p) => jaccard(asked, questionTokens(p))));
}

/** Whether a pair matches, and how strongly: lexically, or by vectors with some words in common. */
export function qaScore(lexical: number, cosine: number | undefined): number | null {
  if (lexical >= QA_LEXICAL_MATCH) return lexical;
  if (cosine !== undefined && cosine >= QA_VECTOR_MATCH && lexical >= QA_VECTOR_LEXICAL_FLOOR) return cosine;
  return null;
}

/**
 * The application's enabled, indexed Q&A pair the question asks, best first (the oldest on a tie),
 * or null. Cited as the first chunk of the pair, which holds its question.
 */
export async function matchQaPair(
  database: Database,
  application: { id: number; llmModels: TLlmModel[] },
  question: string,
): Promise<QaMatch | null> {
  const { rows } = await database.query<{
    uuid: string;
    title: string;
    qa_question: string;
    qa_alternatives: string[] | null;
    qa_answer: string;
    chunk_id: number;
    heading: string | null;
    content: string;
  }>(
    `SELECT k.uuid, k.title, k.qa_question, k.qa_alternatives, k.qa_answer, c.id AS chunk_id, c.heading, c.content
     FROM knowledge_items k
     JOIN knowledge_chunks c ON c.item_id = k.id AND c.ordinal = 0
     WHERE k.application_id = $1 AND k.type = 'qa' AND k.enabled AND k.status = 'ready'
       AND k.qa_question IS NOT NULL AND k.qa_answer IS NOT NULL
     ORDER BY k.created_at, k.id`,
    [application.id],
  );
  if (!rows.length) return null;
  const candidates: QaCandidate[] = rows.map((row) => ({
    itemUuid: row.uuid,
    itemTitle: row.title,
    chunkId: Number(row.chunk_id),
    heading: row.heading,
    content: row.content,
    answer: row.qa_answer,
    phrasings: [row.qa_question, ...(row.qa_alternatives ?? [])],
  }));
  const lexical = candidates.map((c) => lexicalScore(question, c.phrasings));
  // Vectors only for pairs they could decide, and only when no pair matches by its words.
  const undecided = candidates.filter(
    (_c, i) => lexical[i]! < QA_LEXICAL_MATCH && lexical[i]! >= QA_VECTOR_LEXICAL_FLOOR,
  );
  const cosines =
    lexical.some((score) => score >= QA_LEXICAL_MATCH) || !undecided.length
      ? undefined
      : await passageSimilarity(
          database,
          application,
          question,
          undecided.map((c) => c.chunkId),
        ).catch(() => undefined);
  let best: QaMatch | null = null;
  for (const [i, candidate] of candidates.entries()) {
    const score = qaScore(lexical[i]!, cosines?.get(candidate.chunkId));
    if (score !== null && (!best || score > best.score)) best = { ...candidate, score };
  }
  return best;
}

/** The pair as the answer's one cited source. */
export function qaSource(match: QaMatch): TSource {
  return {
    index: 1,
    item_uuid: match.itemUuid,
    item_title: match.itemTitle,
    chunk_id: match.chunkId,
    page: null,
    heading: match.heading,
    snippet: snippetOf(match.content),
  };
}
