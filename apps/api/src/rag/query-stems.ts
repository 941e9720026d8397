import { TEXT_SEARCH_CONFIGS } from './language.ts';

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
