/**
 * Lexical retrieval candidates (decision 054), scored offline on SciFact and SQuAD: both corpora
 * are indexed in process through `indexItem` (PGlite), their chunks' tsvectors read back (whole,
 * title alone, heading and body alone), each query's words stemmed as retrieval does, and every
 * candidate ranked in JavaScript from those: BM25 parameters, the title as a weighted field,
 * hyphenated compounds, RM3 query expansion and a proximity bonus. The baseline reproduces the
 * product's ranking of the time it was written (k1 0.9, b 0.4, compounds counted).
 *
 *   npx tsx bench/retrieval-quality/candidates.ts [--corpus scifact|squad]   (both by default)
 */
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import { openDatabase } from '@cairn/db/client';
import { indexItem } from '../../apps/api/src/rag/index-chunks.ts';
import { TEXT_SEARCH_CONFIGS } from '../../apps/api/src/rag/language.ts';
import { modelCtxOf } from '../../apps/api/src/rag/test-fixtures.ts';
import { argValue } from '../lib.ts';
import { loadCorpus, scoreRanking } from './scifact.ts';

/** lexeme → positions. */
type Positions = Map<string, number[]>;

interface Chunk {
  id: number;
  doc: string;
  config: number;
  whole: Positions;
  title: Positions;
  body: Positions;
  length: number;
  titleLength: number;
  bodyLength: number;
}

interface Query {
  relevant: Set<string>;
  /** Every word of the query with its lexeme per configuration; null lexeme: a stop word there. */
  terms: Array<{ w: string; config: number; lexeme: string | null }>;
}

interface Candidate {
  k1: number;
  b: number;
  /** Title occurrences count this many times (1: the title is plain text of the chunk). */
  titleWeight: number;
  /** BM25F: title and body normalised by their own lengths, the title weighted. */
  bm25f?: { titleWeight: number; titleB: number; bodyB: number };
  /**
   * Query words dropped: hyphenated compounds ("e-mail"; their parts stay), signed numbers (the
   * parser reads "IL-6" as "il", "-6"), or every word with a hyphen.
   */
  drop?: 'compounds' | 'signed' | 'hyphenated';
  /** RM3: expand with the best terms of the first results. */
  rm3?: { docs: number; terms: number; originalWeight: number };
  /** Büttcher-style bonus for query words close together, over the first `depth` results. */
  proximity?: { weight: number; window: number; depth: number };
}

const BASELINE: Candidate = { k1: 0.9, b: 0.4, titleWeight: 1 };
const KEPT: Candidate = { ...BASELINE, k1: 1.2, b: 0.75, drop: 'compounds' };
const CANDIDATES: Array<[string, Candidate]> = [
  ['baseline (k1 0.9, b 0.4)', BASELINE],
  ['title weight 2', { ...BASELINE, titleWeight: 2 }],
  ['title weight 3', { ...BASELINE, titleWeight: 3 }],
  ['BM25F title 2, b 0.5/0.4', { ...BASELINE, bm25f: { titleWeight: 2, titleB: 0.5, bodyB: 0.4 } }],
  ['compounds dropped', { ...BASELINE, drop: 'compounds' }],
  ['signed numbers dropped', { ...BASELINE, drop: 'signed' }],
  ['every hyphenated word dropped', { ...BASELINE, drop: 'hyphenated' }],
  ['k1 1.2, b 0.75', { ...BASELINE, k1: 1.2, b: 0.75 }],
  ['k1 1.2, b 0.4', { ...BASELINE, k1: 1.2 }],
  ['RM3 10 docs, 10 terms, 0.5', { ...BASELINE, rm3: { docs: 10, terms: 10, originalWeight: 0.5 } }],
  ['RM3 5 docs, 10 terms, 0.7', { ...BASELINE, rm3: { docs: 5, terms: 10, originalWeight: 0.7 } }],
  ['proximity 1, window 5, top 100', { ...BASELINE, proximity: { weight: 1, window: 5, depth: 100 } }],
  ['proximity 0.3, window 3, top 20', { ...BASELINE, proximity: { weight: 0.3, window: 3, depth: 20 } }],
  ['kept: k1 1.2, b 0.75, compounds', KEPT],
  ['kept + k1 1.5', { ...KEPT, k1: 1.5 }],
  ['kept + b 0.6', { ...KEPT, b: 0.6 }],
  ['kept + title weight 2', { ...KEPT, titleWeight: 2 }],
  ['kept + RM3 5/10/0.7', { ...KEPT, rm3: { docs: 5, terms: 10, originalWeight: 0.7 } }],
  ['kept + proximity 0.3/3/20', { ...KEPT, proximity: { weight: 0.3, window: 3, depth: 20 } }],
];

const STEMMERS = TEXT_SEARCH_CONFIGS.map(
  (name, id) => `(${id}, '${name === 'simple' ? 'simple' : `${name}_stem`}'::regdictionary)`,
).join(', ');

async function indexCorpus(name: string): Promise<{ chunks: Chunk[]; queries: Query[] }> {
  const { data } = await loadCorpus(name);
  const database = await openDatabase({});
  try {
    await database.migrate();
    const ctx = modelCtxOf(database);
    const [user] = (
      await database.query<{ id: number }>(
        `INSERT INTO users (email, username, password_hash) VALUES ('bench@example.test', 'bench', 'x') RETURNING id`,
      )
    ).rows;
    const [app] = (
      await database.query<{ id: number }>(
        `INSERT INTO applications (owner_id, name) VALUES ($1, $2) RETURNING id`,
        [user!.id, name],
      )
    ).rows;
    const docByItem = new Map<number, string>();
    for (const doc of data.corpus) {
      const [item] = (
        await database.query<{ id: number }>(
          `INSERT INTO knowledge_items (application_id, type, title, status) VALUES ($1, 'text', $2, 'processing') RETURNING id`,
          [app!.id, doc.title],
        )
      ).rows;
      docByItem.set(item!.id, doc.id);
      await indexItem(ctx, {
        applicationId: app!.id,
        itemId: item!.id,
        document: { title: doc.title, sections: [{ text: doc.text }] },
        llmModels: DEFAULT_LLM_MODELS,
      });
    }
    const { rows: used } = await database.query<{ ts_config: number }>(
      'SELECT DISTINCT ts_config FROM knowledge_chunks ORDER BY ts_config',
    );
    const configs = used.map((row) => Number(row.ts_config));
    const chunks: Chunk[] = [];
    for (const config of configs) {
      const { rows } = await database.query<{
        id: number;
        item_id: number;
        whole: string;
        title: string;
        body: string;
        token_count: number;
      }>(
        `SELECT c.id, c.item_id, c.tsv::text AS whole, c.token_count,
                to_tsvector($1::regconfig, i.title)::text AS title,
                to_tsvector($1::regconfig, concat_ws(' ', c.heading, c.content))::text AS body
         FROM knowledge_chunks c JOIN knowledge_items i ON i.id = c.item_id
         WHERE c.ts_config = $2`,
        [TEXT_SEARCH_CONFIGS[config], config],
      );
      for (const row of rows) {
        const title = positions(row.title);
        const body = positions(row.body);
        chunks.push({
          id: Number(row.id),
          doc: docByItem.get(Number(row.item_id))!,
          config,
          whole: positions(row.whole),
          title,
          body,
          length: row.token_count,
          titleLength: size(title),
          bodyLength: size(body),
        });
      }
    }
    chunks.sort((a, b) => a.id - b.id);
    const queries: Query[] = [];
    for (const query of data.queries) {
      const { rows } = await database.query<{ w: string; config: number; lexeme: string | null }>(
        `WITH cfg(id, dict) AS (VALUES ${STEMMERS}),
              words AS (SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('simple', $1::text))) w)
         SELECT words.w, cfg.id AS config, (ts_lexize(cfg.dict, words.w))[1] AS lexeme
         FROM words CROSS JOIN cfg WHERE cfg.id = ANY($2::int[])`,
        [query.text, configs],
      );
      queries.push({
        relevant: data.qrels.get(query.id)!,
        terms: rows.map((row) => ({ w: row.w, config: Number(row.config), lexeme: row.lexeme })),
      });
    }
    return { chunks, queries };
  } finally {
    await database.close();
  }
}

/** A tsvector's text form (`'a':1,3 'it''s':2A`) → lexeme → positions. */
function positions(tsvector: string): Positions {
  const out: Positions = new Map();
  for (const m of tsvector.matchAll(/'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g)) {
    const lexeme = m[1]!.replace(/''/g, "'").replace(/\\(.)/g, '$1');
    out.set(lexeme, m[2] ? m[2].split(',').map((p) => Number.parseInt(p, 10)) : []);
  }
  return out;
}

function size(p: Positions): number {
  let n = 0;
  for (const at of p.values()) n += Math.max(at.length, 1);
  return n;
}

interface Index {
  postings: Map<string, Array<{ chunk: number; tf: number }>>;
  lengths: Float64Array;
  avgLength: number;
  avgTitle: number;
  avgBody: number;
}

const key = (config: number, lexeme: string) => `${config}:${lexeme}`;

function buildIndex(chunks: Chunk[], c: Candidate): Index {
  const postings = new Map<string, Array<{ chunk: number; tf: number }>>();
  const lengths = new Float64Array(chunks.length);
  let total = 0;
  let titles = 0;
  let bodies = 0;
  chunks.forEach((chunk, i) => {
    for (const lexeme of new Set([...chunk.title.keys(), ...chunk.body.keys()])) {
      const tf =
        c.titleWeight === 1
          ? (chunk.whole.get(lexeme)?.length ?? 0)
          : (chunk.body.get(lexeme)?.length ?? 0) + c.titleWeight * (chunk.title.get(lexeme)?.length ?? 0);
      if (tf === 0) continue;
      const list = postings.get(key(chunk.config, lexeme)) ?? [];
      list.push({ chunk: i, tf });
      postings.set(key(chunk.config, lexeme), list);
    }
    lengths[i] = c.titleWeight === 1 ? chunk.length : chunk.bodyLength + c.titleWeight * chunk.titleLength;
    total += lengths[i]!;
    titles += chunk.titleLength;
    bodies += chunk.bodyLength;
  });
  const n = Math.max(chunks.length, 1);
  return { postings, lengths, avgLength: Math.max(total / n, 1), avgTitle: titles / n, avgBody: bodies / n };
}

/** The query's words → their posting keys, as retrieval builds them (stop words of any language out). */
function queryWords(query: Query, c: Candidate): Map<string, string[]> {
  const stopped = new Set(query.terms.filter((t) => t.config !== 0 && t.lexeme === null).map((t) => t.w));
  const dropped = (w: string) =>
    (c.drop === 'compounds' && /.-/.test(w)) ||
    (c.drop === 'signed' && w.startsWith('-')) ||
    (c.drop === 'hyphenated' && w.includes('-'));
  const words = new Map<string, string[]>();
  for (const t of query.terms) {
    if (t.lexeme === null || stopped.has(t.w) || dropped(t.w)) continue;
    words.set(t.w, [...(words.get(t.w) ?? []), key(t.config, t.lexeme)]);
  }
  return words;
}

function idfOf(index: Index, n: number, keys: string[]): number {
  let df = 0;
  for (const k of keys) df += index.postings.get(k)?.length ?? 0;
  return df === 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

function bm25(
  chunks: Chunk[],
  index: Index,
  words: Map<string, string[]>,
  c: Candidate,
  weights?: Map<string, number>,
): Map<number, number> {
  const scores = new Map<number, number>();
  for (const [w, keys] of words) {
    const idf = idfOf(index, chunks.length, keys);
    if (idf === 0) continue;
    const weight = weights?.get(w) ?? 1;
    for (const k of keys) {
      const lexeme = k.slice(k.indexOf(':') + 1);
      for (const { chunk, tf } of index.postings.get(k) ?? []) {
        let term: number;
        if (c.bm25f) {
          const ch = chunks[chunk]!;
          const f = c.bm25f;
          const weighted =
            (f.titleWeight * (ch.title.get(lexeme)?.length ?? 0)) /
              (1 - f.titleB + (f.titleB * ch.titleLength) / index.avgTitle) +
            (ch.body.get(lexeme)?.length ?? 0) / (1 - f.bodyB + (f.bodyB * ch.bodyLength) / index.avgBody);
          term = (idf * weighted * (c.k1 + 1)) / (weighted + c.k1);
        } else {
          term =
            (idf * tf * (c.k1 + 1)) /
            (tf + c.k1 * (1 - c.b + (c.b * index.lengths[chunk]!) / index.avgLength));
        }
        scores.set(chunk, (scores.get(chunk) ?? 0) + weight * term);
      }
    }
  }
  return scores;
}

function best(scores: Map<number, number>, chunks: Chunk[], k: number): Array<[number, number]> {
  return [...scores].sort((a, b) => b[1] - a[1] || chunks[a[0]]!.id - chunks[b[0]]!.id).slice(0, k);
}

/** RM3-style: the first results' terms, weighted by result score and frequency, added to the query. */
function expand(
  chunks: Chunk[],
  index: Index,
  words: Map<string, string[]>,
  scores: Map<number, number>,
  rm3: NonNullable<Candidate['rm3']>,
) {
  const feedback = best(scores, chunks, rm3.docs);
  const top = feedback[0]?.[1] ?? 0;
  const mass = new Map<string, number>();
  for (const [chunk, score] of feedback) {
    const ch = chunks[chunk]!;
    for (const [lexeme, at] of ch.whole) {
      const k = key(ch.config, lexeme);
      mass.set(k, (mass.get(k) ?? 0) + (Math.exp(score - top) * at.length) / ch.length);
    }
  }
  const original = new Set([...words.values()].flat());
  const common = chunks.length * 0.1;
  const added = [...mass]
    .filter(([k]) => !original.has(k) && (index.postings.get(k)?.length ?? 0) < common)
    .sort((a, b) => b[1] - a[1])
    .slice(0, rm3.terms);
  const sum = added.reduce((s, [, m]) => s + m, 0) || 1;
  const expanded = new Map(words);
  const weights = new Map<string, number>();
  for (const w of words.keys()) weights.set(w, rm3.originalWeight);
  for (const [k, m] of added) {
    expanded.set(`+${k}`, [k]);
    weights.set(`+${k}`, ((1 - rm3.originalWeight) * m * words.size) / sum);
  }
  return { expanded, weights };
}

/** Büttcher, Clarke & Lushman (2006): neighbouring occurrences of different query words. */
function proximityBonus(
  chunk: Chunk,
  words: Map<string, string[]>,
  idf: Map<string, number>,
  window: number,
  k1: number,
) {
  const hits: Array<[number, string]> = [];
  for (const [w, keys] of words) {
    for (const k of keys) {
      if (!k.startsWith(`${chunk.config}:`)) continue;
      for (const at of chunk.whole.get(k.slice(k.indexOf(':') + 1)) ?? []) hits.push([at, w]);
    }
  }
  hits.sort((a, b) => a[0] - b[0]);
  const acc = new Map<string, number>();
  for (let i = 1; i < hits.length; i++) {
    const [p0, w0] = hits[i - 1]!;
    const [p1, w1] = hits[i]!;
    const d = p1 - p0;
    if (w0 === w1 || d <= 0 || d > window) continue;
    acc.set(w0, (acc.get(w0) ?? 0) + (idf.get(w1) ?? 0) / (d * d));
    acc.set(w1, (acc.get(w1) ?? 0) + (idf.get(w0) ?? 0) / (d * d));
  }
  let bonus = 0;
  for (const [w, a] of acc) bonus += (Math.min(1, idf.get(w) ?? 0) * a * (k1 + 1)) / (a + k1);
  return bonus;
}

function evaluate(corpus: { chunks: Chunk[]; queries: Query[] }, c: Candidate) {
  const { chunks, queries } = corpus;
  const index = buildIndex(chunks, c);
  let ndcg = 0;
  let recall = 0;
  let rr = 0;
  for (const query of queries) {
    const words = queryWords(query, c);
    let scores = bm25(chunks, index, words, c);
    if (c.rm3) {
      const { expanded, weights } = expand(chunks, index, words, scores, c.rm3);
      scores = bm25(chunks, index, expanded, c, weights);
    }
    if (c.proximity) {
      const idf = new Map([...words].map(([w, keys]) => [w, idfOf(index, chunks.length, keys)]));
      for (const [chunk, score] of best(scores, chunks, c.proximity.depth)) {
        const bonus = proximityBonus(chunks[chunk]!, words, idf, c.proximity.window, c.k1);
        scores.set(chunk, score + c.proximity.weight * bonus);
      }
    }
    // As the benches: the first 50 passages, documents ranked by their best passage.
    const ranked = [...new Set(best(scores, chunks, 50).map(([chunk]) => chunks[chunk]!.doc))];
    const s = scoreRanking(ranked, query.relevant, 10);
    ndcg += s.ndcg;
    recall += s.recall;
    rr += s.rr;
  }
  const n = queries.length;
  return { ndcg: ndcg / n, recall: recall / n, mrr: rr / n };
}

const names = argValue('--corpus') ? [argValue('--corpus')!] : ['scifact', 'squad'];
const corpora = new Map<string, { chunks: Chunk[]; queries: Query[] }>();
for (const name of names) {
  const started = performance.now();
  corpora.set(name, await indexCorpus(name));
  console.error(`${name} indexed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
console.log(`| candidate | ${names.map((n) => `${n} nDCG@10 | Recall@10 | MRR@10`).join(' | ')} |`);
console.log(`|---|${names.map(() => '---|---|---').join('|')}|`);
for (const [label, candidate] of CANDIDATES) {
  const cells = names.flatMap((name) => {
    const r = evaluate(corpora.get(name)!, candidate);
    return [r.ndcg, r.recall, r.mrr].map((x) => x.toFixed(4));
  });
  console.log(`| ${label} | ${cells.join(' | ')} |`);
}
