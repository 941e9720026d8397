import type { TLlmModel } from '@cairn/contracts/applications';
import type { TSource } from '@cairn/contracts/chat';
import type { Database } from '@cairn/db/client';
import type { ModelCtx } from '../../../lib/ctx.ts';
import { passageSimilarity } from '../../../rag/passage-similarity.ts';
import { jaccard, questionTokens } from '../../attention/question-similarity.ts';
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

export interface QaMatch {
  itemUuid: string;
  itemTitle: string;
  chunkId: number;
  heading: string | null;
  content: string;
  answer: string;
  /** The deciding similarity (0–1): lexical, or the vectors' cosine when they decided. */
  score: number;
}

/**
 * The pairs' phrasings come back with every question: their tokens are remembered (bounded, like the
 * stemmer's memo), which halves the match's time at 1,000 pairs (bench/qa-match).
 */
const phrasingTokens = new Map<string, string[]>();
function tokensOfPhrasing(phrasing: string): string[] {
  let tokens = phrasingTokens.get(phrasing);
  if (!tokens) {
    tokens = questionTokens(phrasing);
    if (phrasingTokens.size > 50_000) phrasingTokens.clear();
    phrasingTokens.set(phrasing, tokens);
  }
  return tokens;
}

/** The best-scoring phrasing's lexical similarity to the question. */
export function lexicalScore(question: string, phrasings: readonly string[]): number {
  const asked = questionTokens(question);
  if (!asked.length) return 0;
  return Math.max(0, ...phrasings.map((p) => jaccard(asked, tokensOfPhrasing(p))));
}

/** Whether a pair matches, and how strongly: lexically, or by vectors with some words in common. */
export function qaScore(lexical: number, cosine: number | undefined): number | null {
  if (lexical >= QA_LEXICAL_MATCH) return lexical;
  if (cosine !== undefined && cosine >= QA_VECTOR_MATCH && lexical >= QA_VECTOR_LEXICAL_FLOOR) return cosine;
  return null;
}

/**
 * The application's enabled, indexed Q&A pair the question asks, best first (the oldest on a tie),
 * or null. Cited as the first chunk of the pair, which holds its question. Only the phrasings are
 * read for every pair; the answer and its passage only for the one that matches.
 */
export async function matchQaPair(
  ctx: ModelCtx,
  application: { id: number; llmModels: TLlmModel[] },
  question: string,
): Promise<QaMatch | null> {
  const { database } = ctx;
  const { rows } = await database.query<{
    id: number;
    qa_question: string;
    qa_alternatives: string[] | null;
  }>(
    `SELECT id, qa_question, qa_alternatives FROM knowledge_items
     WHERE application_id = $1 AND type = 'qa' AND enabled AND status = 'ready'
       AND qa_question IS NOT NULL AND qa_answer IS NOT NULL
     ORDER BY created_at, id`,
    [application.id],
  );
  if (!rows.length) return null;
  const lexical = rows.map((row) =>
    lexicalScore(question, [row.qa_question, ...(row.qa_alternatives ?? [])]),
  );
  const cosines = new Map<number, number>();
  // Vectors only for pairs they could decide, and only when no pair matches by its words.
  const undecided = rows.filter(
    (_row, i) => lexical[i]! >= QA_VECTOR_LEXICAL_FLOOR && lexical[i]! < QA_LEXICAL_MATCH,
  );
  if (undecided.length && !lexical.some((score) => score >= QA_LEXICAL_MATCH)) {
    const chunks = await firstChunks(
      database,
      undecided.map((row) => Number(row.id)),
    );
    const similarity = await passageSimilarity(ctx, application, question, [...chunks.values()]).catch(
      () => undefined,
    );
    for (const [itemId, chunkId] of chunks) {
      const cosine = similarity?.get(chunkId);
      if (cosine !== undefined) cosines.set(itemId, cosine);
    }
  }
  let best: { itemId: number; score: number } | null = null;
  for (const [i, row] of rows.entries()) {
    const score = qaScore(lexical[i]!, cosines.get(Number(row.id)));
    if (score !== null && (!best || score > best.score)) best = { itemId: Number(row.id), score };
  }
  return best && matchOf(database, best.itemId, best.score);
}

/** Each item's first chunk (the one holding its question): item id → chunk id. */
async function firstChunks(database: Database, itemIds: number[]): Promise<Map<number, number>> {
  const { rows } = await database.query<{ item_id: number; id: number }>(
    'SELECT item_id, id FROM knowledge_chunks WHERE item_id = ANY($1::int[]) AND ordinal = 0',
    [itemIds],
  );
  return new Map(rows.map((row) => [Number(row.item_id), Number(row.id)]));
}

async function matchOf(database: Database, itemId: number, score: number): Promise<QaMatch | null> {
  const { rows } = await database.query<{
    uuid: string;
    title: string;
    qa_answer: string;
    chunk_id: number;
    heading: string | null;
    content: string;
  }>(
    `SELECT k.uuid, k.title, k.qa_answer, c.id AS chunk_id, c.heading, c.content
     FROM knowledge_items k JOIN knowledge_chunks c ON c.item_id = k.id AND c.ordinal = 0
     WHERE k.id = $1`,
    [itemId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    itemUuid: row.uuid,
    itemTitle: row.title,
    chunkId: Number(row.chunk_id),
    heading: row.heading,
    content: row.content,
    answer: row.qa_answer,
    score,
  };
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
