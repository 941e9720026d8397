import type { Database } from '@cairn/db/client';
import { TEXT_SEARCH_CONFIGS } from './language.ts';
import type { LexicalIndex } from './lexical-index.ts';

/** Configuration ids and their dictionaries (every configuration stems words with one). */
const CONFIG_VALUES = TEXT_SEARCH_CONFIGS.map(
  (name, id) => `(${id}, '${name === 'simple' ? 'simple' : `${name}_stem`}'::regdictionary)`,
).join(', ');

/**
 * SQL common table expressions: the query's ($2) distinct words and their lexemes in every
 * configuration of a `used(ts_config)` table the statement defines first. `stems.lexemes` is empty
 * for a stop word of that configuration.
 */
export const QUERY_STEMS = `
cfg(id, dict) AS (VALUES ${CONFIG_VALUES}),
words AS (SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('simple', $2::text))) w),
stems AS (
  SELECT words.w, used.ts_config, ts_lexize(cfg.dict, words.w) AS lexemes
  FROM words CROSS JOIN used JOIN cfg ON cfg.id = used.ts_config
)`;

/**
 * The configurations that have postings in application $1, as `used(ts_config)`: a loose index
 * scan of the postings key (one probe per configuration). Starts a `WITH RECURSIVE` clause.
 */
export const USED_CONFIGS = `
WITH RECURSIVE used(ts_config) AS (
  (SELECT ts_config FROM knowledge_postings WHERE application_id = $1 ORDER BY ts_config LIMIT 1)
  UNION ALL
  SELECT (SELECT p.ts_config FROM knowledge_postings p
          WHERE p.application_id = $1 AND p.ts_config > used.ts_config ORDER BY p.ts_config LIMIT 1)
  FROM used WHERE used.ts_config IS NOT NULL
)`;

/**
 * The knowledge's version and the query's words stemmed in the configurations of a cached copy
 * ($3): one row per word and configuration (a row of nulls beside the version when the query has
 * no word), no row when the application never had chunks.
 */
const STEMS_SQL = `
WITH used(ts_config) AS (SELECT unnest($3::int[])),${QUERY_STEMS}
SELECT s.version::text AS version, stems.w, stems.ts_config, stems.lexemes[1] AS lexeme,
       cardinality(stems.lexemes) = 0 AS stop
FROM knowledge_index_stats s LEFT JOIN stems ON true
WHERE s.application_id = $1`;

export interface Stem {
  w: string;
  ts_config: number;
  /** Null for a stop word of this configuration. */
  lexeme: string | null;
  stop: boolean;
}

export interface QueryStems {
  /** `knowledge_index_stats.version` now; undefined when the application never had chunks. */
  version: string | undefined;
  stems: Stem[];
}

/** Per cached copy: the last few queries stemmed for it (an answer reads them twice). */
const recent = new WeakMap<LexicalIndex, Map<string, QueryStems>>();
const RECENT_QUERIES = 16;

/**
 * Stems the query in the configurations of a cached copy of the postings, and reads the
 * knowledge's current version beside them (one statement), so the caller can tell whether the
 * copy may answer. Remembered for the copy: `recentStems` gives them again without a statement.
 */
export async function stemQuery(database: Database, index: LexicalIndex, query: string): Promise<QueryStems> {
  const { rows } = await database.query<{
    version: string;
    w: string | null;
    ts_config: number | null;
    lexeme: string | null;
    stop: boolean | null;
  }>(STEMS_SQL, [index.applicationId, query, index.configs]);
  const stems = rows.flatMap((row) =>
    row.w === null || row.ts_config === null
      ? []
      : [{ w: row.w, ts_config: Number(row.ts_config), lexeme: row.lexeme, stop: row.stop === true }],
  );
  const result = { version: rows[0]?.version, stems };
  const queries = recent.get(index) ?? new Map<string, QueryStems>();
  recent.set(index, queries);
  queries.delete(query);
  queries.set(query, result);
  if (queries.size > RECENT_QUERIES) queries.delete(queries.keys().next().value!);
  return result;
}

/** What `stemQuery` last read for this copy and query, if it did lately. */
export function recentStems(index: LexicalIndex, query: string): QueryStems | undefined {
  return recent.get(index)?.get(query);
}
