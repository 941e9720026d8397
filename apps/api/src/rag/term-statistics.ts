import type { Database } from '@cairn/db/client';
import { cachedLexicalIndex } from './lexical-index.ts';
import { QUERY_STEMS, recentStems, stemQuery, USED_CONFIGS } from './query-stems.ts';

/** How many postings are counted at most per word: beyond it a word is common, its weight small anyway. */
export const DF_COUNT_CAP = 2000;

/**
 * Per word of the query ($2) in one application ($1): how many chunks hold it (summed over the
 * stemming configurations its chunks use, each count capped at $3) and whether some configuration
 * in use treats it as a stop word. Also the application's chunk count. Counting reads up to $3
 * index entries per word and configuration: tens of milliseconds at 10k chunks, so it only answers
 * while the application has no current in-process copy of its postings.
 */
const TERM_STATISTICS_SQL = `${USED_CONFIGS},${QUERY_STEMS},
counted AS (
  SELECT s.w, cardinality(s.lexemes) = 0 AS stop, c.n
  FROM stems s CROSS JOIN LATERAL (
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM knowledge_postings k
      WHERE k.application_id = $1 AND k.ts_config = s.ts_config AND k.lexeme = s.lexemes[1]
      LIMIT $3
    ) x
  ) c
)
SELECT w, bool_or(stop) AS stop, sum(n)::int AS df,
       (SELECT chunk_count FROM knowledge_index_stats WHERE application_id = $1)::int AS chunks,
       (SELECT version::text FROM knowledge_index_stats WHERE application_id = $1) AS version
FROM counted GROUP BY w`;

/** What the relevance decision needs to know of the whole knowledge, not just the retrieved passages. */
export interface TermStatistics {
  /** Chunks in the application's knowledge. */
  chunks: number;
  /** Lower-cased query word → chunks holding it (capped at DF_COUNT_CAP per configuration). */
  df: Map<string, number>;
  /** Query words some stemming configuration in use treats as stop words ("is", "der", "les"). */
  stopWords: Set<string>;
  /**
   * Item title → chunks under it: how often retrieval would meet a title by chance, against which
   * the relevance decision reads the retrieved passages' agreement on one (decision 075).
   */
  titleChunks?: ReadonlyMap<string, number>;
}

/** Chunks per item title, at one version of an application's knowledge. */
const TITLE_CHUNKS_SQL = `SELECT i.title, count(*)::int AS chunks
FROM knowledge_chunks c JOIN knowledge_items i ON i.id = c.item_id
WHERE c.application_id = $1 GROUP BY i.title`;

/** The last counted version per application: titles change only with the knowledge's version. */
const titleCounts = new WeakMap<Database, Map<number, { version: string; titles: Map<string, number> }>>();

async function titleChunksAt(database: Database, applicationId: number, version: string) {
  let perApplication = titleCounts.get(database);
  if (!perApplication) {
    perApplication = new Map();
    titleCounts.set(database, perApplication);
  }
  const known = perApplication.get(applicationId);
  if (known?.version === version) return known.titles;
  const { rows } = await database.query<{ title: string; chunks: number }>(TITLE_CHUNKS_SQL, [applicationId]);
  const titles = new Map(rows.map((row) => [row.title, Number(row.chunks)]));
  perApplication.set(applicationId, { version, titles });
  return titles;
}

/**
 * Document frequencies of the query's words in the application's knowledge, counted by the same
 * stemming as the BM25 index: a word absent from the whole knowledge is the strongest sign that
 * the knowledge does not cover a question about it. Read from the in-process copy of the postings
 * when it is current (a retrieval just before has made sure of that), else counted in SQL.
 */
export async function termStatistics(
  database: Database,
  applicationId: number,
  query: string,
): Promise<TermStatistics> {
  const index = cachedLexicalIndex(database, applicationId);
  if (index) {
    // The retrieval just before has stemmed this question for the same copy.
    const { version, stems } = recentStems(index, query) ?? (await stemQuery(database, index, query));
    if (version === index.version) {
      const stats: TermStatistics = {
        chunks: index.chunkCount,
        df: new Map(),
        stopWords: new Set(),
        titleChunks: await titleChunksAt(database, applicationId, version),
      };
      for (const { w, ts_config, lexeme, stop } of stems) {
        const count =
          lexeme === null ? 0 : Math.min(index.documentFrequency(ts_config, lexeme), DF_COUNT_CAP);
        stats.df.set(w, (stats.df.get(w) ?? 0) + count);
        if (stop) stats.stopWords.add(w);
      }
      return stats;
    }
  }
  const { rows } = await database.query<{
    w: string;
    stop: boolean;
    df: number;
    chunks: number | null;
    version: string | null;
  }>(TERM_STATISTICS_SQL, [applicationId, query, DF_COUNT_CAP]);
  const version = rows[0]?.version;
  const stats: TermStatistics = {
    chunks: 0,
    df: new Map(),
    stopWords: new Set(),
    ...(version ? { titleChunks: await titleChunksAt(database, applicationId, version) } : {}),
  };
  for (const row of rows) {
    stats.chunks = Number(row.chunks ?? 0);
    stats.df.set(row.w, Number(row.df));
    if (row.stop) stats.stopWords.add(row.w);
  }
  return stats;
}
