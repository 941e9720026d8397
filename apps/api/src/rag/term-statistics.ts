import type { Database } from '@cairn/db/client';
import { TEXT_SEARCH_CONFIGS } from './language.ts';

/** How many postings are counted at most per word: beyond it a word is common, its weight small anyway. */
export const DF_COUNT_CAP = 2000;

const CONFIG_VALUES = TEXT_SEARCH_CONFIGS.map(
  (name, id) => `(${id}, '${name === 'simple' ? 'simple' : `${name}_stem`}'::regdictionary)`,
).join(', ');

/**
 * Per word of the query ($2) in one application ($1): how many chunks hold it (summed over the
 * stemming configurations its chunks use, each count capped at $3) and whether some configuration
 * in use treats it as a stop word. Also the application's chunk count.
 */
const TERM_STATISTICS_SQL = `
WITH RECURSIVE used(ts_config) AS (
  (SELECT ts_config FROM knowledge_postings WHERE application_id = $1 ORDER BY ts_config LIMIT 1)
  UNION ALL
  SELECT (SELECT p.ts_config FROM knowledge_postings p
          WHERE p.application_id = $1 AND p.ts_config > used.ts_config ORDER BY p.ts_config LIMIT 1)
  FROM used WHERE used.ts_config IS NOT NULL
),
cfg(id, dict) AS (VALUES ${CONFIG_VALUES}),
words AS (SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('simple', $2::text))) w),
q AS (
  SELECT words.w, used.ts_config, ts_lexize(cfg.dict, words.w) AS lexemes
  FROM words CROSS JOIN used JOIN cfg ON cfg.id = used.ts_config
),
counted AS (
  SELECT q.w, cardinality(q.lexemes) = 0 AS stop, c.n
  FROM q CROSS JOIN LATERAL (
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM knowledge_postings k
      WHERE k.application_id = $1 AND k.ts_config = q.ts_config AND k.lexeme = q.lexemes[1]
      LIMIT $3
    ) x
  ) c
)
SELECT w, bool_or(stop) AS stop, sum(n)::int AS df,
       (SELECT chunk_count FROM knowledge_index_stats WHERE application_id = $1)::int AS chunks
FROM counted GROUP BY w`;

/** What the relevance decision needs to know of the whole knowledge, not just the retrieved passages. */
export interface TermStatistics {
  /** Chunks in the application's knowledge. */
  chunks: number;
  /** Lower-cased query word → chunks holding it (capped at DF_COUNT_CAP per configuration). */
  df: Map<string, number>;
  /** Query words some stemming configuration in use treats as stop words ("is", "der", "les"). */
  stopWords: Set<string>;
}

/**
 * Document frequencies of the query's words in the application's knowledge, counted from the
 * BM25 postings by the same stemming as the index: a word absent from the whole knowledge is the
 * strongest sign that the knowledge does not cover a question about it.
 */
export async function termStatistics(
  database: Database,
  applicationId: number,
  query: string,
): Promise<TermStatistics> {
  const { rows } = await database.query<{ w: string; stop: boolean; df: number; chunks: number | null }>(
    TERM_STATISTICS_SQL,
    [applicationId, query, DF_COUNT_CAP],
  );
  const stats: TermStatistics = { chunks: 0, df: new Map(), stopWords: new Set() };
  for (const row of rows) {
    stats.chunks = Number(row.chunks ?? 0);
    stats.df.set(row.w, Number(row.df));
    if (row.stop) stats.stopWords.add(row.w);
  }
  return stats;
}
