import type { TLlmModel } from '@cairn/contracts/applications';
import type { Database } from '@cairn/db/client';
import type { ModelCtx } from '../lib/ctx.ts';
import type { Embedder } from '../models/types.ts';
import { resolveEmbedder } from './embed.ts';
import { cachedLexicalIndex, dropLexicalIndex, requestLexicalIndexBuild } from './lexical-index.ts';
import { QUERY_STEMS, type Stem, stemQuery, USED_CONFIGS } from './query-stems.ts';
import type { Passage } from './types.ts';
import { vectorSearch } from './vector-search.ts';

/**
 * BM25 parameters: Robertson's usual defaults, better than DESIGN §5's 0.9 / 0.4 on both SciFact
 * and SQuAD paragraphs (decision 054).
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** The usual reciprocal-rank-fusion constant: damps the weight of the very first ranks. */
export const RRF_K = 60;
/** Each ranking contributes this many candidates (at least) to the fusion. */
const MIN_CANDIDATES = 50;

/** From this many chunks on, very common query words are skipped (see BM25_SQL). */
export const LARGE_COLLECTION = 20_000;
export const COMMON_WORD_FRACTION = 0.1;

/**
 * BM25_SQL's `q`: the query's words and their lexemes per configuration in `used`, one per word and
 * configuration so (word, chunk) pairs are unique. A stop word of any language in use ("is", "the")
 * is dropped for every chunk: otherwise it would look rare and weigh heavily in the few chunks
 * indexed without stop words (simple). `bm25Terms` is the same rule for the cached copy.
 */
const QUERY_TERMS = `${QUERY_STEMS},
q AS (
  SELECT s.w, s.ts_config, s.lexemes[1] AS lexeme
  FROM stems s
  WHERE cardinality(s.lexemes) > 0
    AND NOT EXISTS (SELECT 1 FROM stems x WHERE x.w = s.w AND x.ts_config <> 0 AND cardinality(x.lexemes) = 0)
)`;

/**
 * `off`: the chunks of the application's ($1) switched-off items. Found through the items (few are
 * off), so the cost is one probe of the application's items plus the chunks of those that are off.
 */
export const SWITCHED_OFF_CHUNKS = `off AS MATERIALIZED (
  SELECT c.id FROM knowledge_items i JOIN knowledge_chunks c ON c.item_id = i.id
  WHERE i.application_id = $1 AND NOT i.enabled
)`;

/**
 * BM25 over the postings of one application.
 *
 * Chunks are stemmed in their item's language, so one query word has a lexeme per configuration
 * (`running` → `run` in english, `running` in simple). The query is split into words; each word is
 * turned into its lexeme in every configuration the application uses (found by a loose index scan
 * of the postings key: one probe per configuration) and matched only against chunks of that
 * configuration. Document frequency is counted per word over all of them, so a word is as rare
 * or common as it is in the whole application, whatever languages its chunks were detected in.
 *
 * In a large application (LARGE_COLLECTION chunks or more) a word found in more than
 * COMMON_WORD_FRACTION of the chunks is left out of the score (unless every word of the query is
 * that common): reading and summing its postings would cost most of the query's time, for a word
 * with a low IDF. Counting stops at the cap, so finding out costs at most that many index entries.
 *
 * Chunks of switched-off items (decision 071) are left out of the ranking but not of the collection
 * statistics (chunk count, average length, document frequencies): switching an item off or on
 * changes no other passage's score and needs no re-indexing.
 *
 * Postings are read per lexeme through the primary key (LATERAL … OFFSET 0 keeps the planner from
 * trading the probes for a scan of all the application's postings). Collection size and average
 * length come from knowledge_index_stats.
 *
 * Most searches are scored from an in-process copy of the postings instead (lexical-index.ts), in
 * about a millisecond; this query answers while there is no current copy, and is the reference the
 * copy is tested against.
 */
export const BM25_SQL = `${USED_CONFIGS},${QUERY_TERMS},
-- A hyphenated compound ("e-mail", "state-of-the-art") also yields its parts as words: it is
-- scored by its parts only, not counted again as a word of its own (decision 054). A word that
-- starts with a hyphen is a signed number ("IL-6" → "il", "-6") and stays. The copy's path drops
-- the same words in JavaScript (isHyphenatedCompound).
scored AS (SELECT * FROM q WHERE w !~ '.-'),
stats AS MATERIALIZED (
  SELECT chunk_count::float8 AS n, greatest(token_total::float8 / greatest(chunk_count, 1), 1) AS avgdl
  FROM knowledge_index_stats WHERE application_id = $1
),
cap AS MATERIALIZED (
  SELECT floor(n * $5::float8)::bigint AS c FROM stats WHERE n >= $4::float8
),
sizes AS MATERIALIZED (
  SELECT q.w, sum(c.n) AS n
  FROM scored q CROSS JOIN cap CROSS JOIN LATERAL (
    SELECT count(*) AS n FROM (
      SELECT 1 FROM knowledge_postings k
      WHERE k.application_id = $1 AND k.ts_config = q.ts_config AND k.lexeme = q.lexeme
      LIMIT cap.c + 1
    ) x
  ) c
  GROUP BY q.w
),
kept AS (
  SELECT q.* FROM scored q
  WHERE NOT EXISTS (SELECT 1 FROM sizes s CROSS JOIN cap WHERE s.w = q.w AND s.n > cap.c)
     OR NOT EXISTS (SELECT 1 FROM sizes s CROSS JOIN cap WHERE s.n <= cap.c)
),
p AS MATERIALIZED (
  SELECT q.w, k.chunk_id, k.tf, k.chunk_length
  FROM kept q CROSS JOIN LATERAL (
    SELECT k.chunk_id, k.tf, k.chunk_length FROM knowledge_postings k
    WHERE k.application_id = $1 AND k.ts_config = q.ts_config AND k.lexeme = q.lexeme
    OFFSET 0
  ) k
),
df AS MATERIALIZED (SELECT w, count(*)::float8 AS n FROM p GROUP BY w),
${SWITCHED_OFF_CHUNKS}
SELECT p.chunk_id AS id,
       sum(ln(1 + (stats.n - df.n + 0.5) / (df.n + 0.5))
           * p.tf * (${BM25_K1} + 1)
           / (p.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * p.chunk_length / stats.avgdl))) AS score
FROM p JOIN df USING (w) CROSS JOIN stats
WHERE p.chunk_id NOT IN (SELECT id FROM off)
GROUP BY p.chunk_id
ORDER BY score DESC, p.chunk_id
LIMIT $3`;

export interface RankedChunk {
  id: number;
  score: number;
}

/**
 * Chunk ids of one application ranked by BM25, best first: from the in-process copy of its
 * postings when that copy is current (lexical-index.ts), else by BM25_SQL, which also starts
 * building the copy. Both give the same ranking and scores.
 */
export async function lexicalSearch(
  database: Database,
  applicationId: number,
  query: string,
  limit: number,
  pruning = { largeCollection: LARGE_COLLECTION, commonWordFraction: COMMON_WORD_FRACTION },
): Promise<RankedChunk[]> {
  const index = cachedLexicalIndex(database, applicationId);
  if (index) {
    const { version, stems } = await stemQuery(database, index, query);
    if (version === index.version) {
      const terms = bm25Terms(stems);
      return index.search(terms, limit, pruning, { k1: BM25_K1, b: BM25_B });
    }
    dropLexicalIndex(database, index);
  }
  const ranked = await lexicalSearchSql(database, applicationId, query, limit, pruning);
  // After the query, so that on PGlite the build's first statement does not queue ahead of it.
  requestLexicalIndexBuild(database, applicationId);
  return ranked;
}

/** QUERY_TERMS's `q` and BM25_SQL's `scored`, from the stems read for the cached copy. */
function bm25Terms(stems: Stem[]): { w: string; ts_config: number; lexeme: string }[] {
  const stopped = new Set(stems.filter((s) => s.stop && s.ts_config !== 0).map((s) => s.w));
  return stems.flatMap(({ w, ts_config, lexeme, stop }) =>
    lexeme === null || stop || stopped.has(w) || isHyphenatedCompound(w) ? [] : [{ w, ts_config, lexeme }],
  );
}

/** BM25_SQL's `scored`: a compound the query also has the parts of (a signed number is not one). */
function isHyphenatedCompound(word: string): boolean {
  return /.-/su.test(word);
}

/** BM25_SQL alone, never the cached copy: the reference the copy is checked against. */
export async function lexicalSearchSql(
  database: Database,
  applicationId: number,
  query: string,
  limit: number,
  pruning = { largeCollection: LARGE_COLLECTION, commonWordFraction: COMMON_WORD_FRACTION },
): Promise<RankedChunk[]> {
  const { rows } = await database.query<{ id: number; score: number | string }>(BM25_SQL, [
    applicationId,
    query,
    limit,
    pruning.largeCollection,
    pruning.commonWordFraction,
  ]);
  return rows.map((row) => ({ id: Number(row.id), score: Number(row.score) }));
}

/**
 * Hybrid retrieval (DESIGN §5): BM25 and, when the application has an embedding model, vector
 * similarity, fused by reciprocal rank. Only the application's own chunks are considered. The
 * score is the fused reciprocal-rank score: it orders results, it is not a probability.
 */
export async function retrieve(
  ctx: ModelCtx,
  application: { id: number; llmModels: TLlmModel[] },
  query: string,
  topK: number,
): Promise<Passage[]> {
  if (query.trim() === '' || topK <= 0) return [];
  return retrieveWith(
    ctx.database,
    application.id,
    await resolveEmbedder(ctx, application.llmModels),
    query,
    topK,
  );
}

/** `retrieve` with the embedding model already resolved (null: lexical only). */
export async function retrieveWith(
  database: Database,
  applicationId: number,
  embedder: Embedder | null,
  query: string,
  topK: number,
): Promise<Passage[]> {
  if (query.trim() === '' || topK <= 0) return [];
  const candidates = candidatesFor(topK);
  const [lexical, semantic] = await Promise.all([
    lexicalSearch(database, applicationId, query, candidates),
    embedder ? semanticSearch(database, applicationId, embedder, query, candidates) : [],
  ]);
  const fused = fuseByReciprocalRank([lexical, semantic]).slice(0, topK);
  return loadPassages(database, applicationId, fused);
}

/**
 * How many candidates each ranking gives for `topK` results: two retrievals with the same count
 * rank alike, so the first results of the larger one are the smaller one's results.
 */
export function candidatesFor(topK: number): number {
  return Math.max(topK * 2, MIN_CANDIDATES);
}

async function semanticSearch(
  database: Database,
  applicationId: number,
  embedder: Embedder,
  query: string,
  limit: number,
): Promise<RankedChunk[]> {
  const [vector] = await embedder.embed([query]);
  if (!vector) return [];
  return vectorSearch(database, { applicationId, modelId: embedder.id, vector, limit });
}

/** Σ 1/(k + rank) over the rankings a chunk appears in. */
export function fuseByReciprocalRank(rankings: RankedChunk[][]): RankedChunk[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((chunk, index) => {
      scores.set(chunk.id, (scores.get(chunk.id) ?? 0) + 1 / (RRF_K + index + 1));
    });
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}

/** The ranked chunks' passages; an item switched off since the ranking was read is left out too. */
async function loadPassages(
  database: Database,
  applicationId: number,
  ranked: RankedChunk[],
): Promise<Passage[]> {
  if (ranked.length === 0) return [];
  const { rows } = await database.query<{
    id: number;
    content: string;
    page: number | null;
    heading: string | null;
    item_uuid: string;
    item_title: string;
  }>(
    // One primary-key probe per ranked id. With `c.id = ANY(…)` beside `c.application_id = $1`, a
    // planner without statistics (PGlite never analyzes) also scanned the application's whole chunk
    // index and intersected the two: 0.4–0.7 ms more per answer at 10k chunks (decision 090).
    `SELECT c.id, c.content, c.page, c.heading, i.uuid AS item_uuid, i.title AS item_title
     FROM unnest($2::int[]) AS ranked(id)
     JOIN knowledge_chunks c ON c.id = ranked.id
     JOIN knowledge_items i ON i.id = c.item_id
     WHERE c.application_id = $1 AND i.enabled`,
    [applicationId, ranked.map((r) => r.id)],
  );
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ranked.flatMap((r) => {
    const row = byId.get(r.id);
    if (!row) return [];
    return [
      {
        item_uuid: row.item_uuid,
        item_title: row.item_title,
        chunk_id: r.id,
        content: row.content,
        score: r.score,
        page: row.page,
        heading: row.heading,
      },
    ];
  });
}
