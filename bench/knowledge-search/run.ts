/**
 * Knowledge search latency at 10k and 100k chunks, on PGlite and on PostgreSQL, with the built-in
 * (BM25) retrieval. The chunks are passages recombined from SciFact sentences (a real scientific
 * vocabulary and word-frequency distribution), indexed through `indexItem` like ingestion does;
 * the queries are SciFact claims. Prints p50/p95 of `retrieve` (top 5) and of the lexical ranking
 * from the in-process copy of the postings and from BM25_SQL, the copy's build time and size, and
 * the peak RSS of this process (which, on PGlite, holds the database too).
 *
 *   npm run bench:knowledge-search                                 # PGlite, 10k and 100k
 *   npm run bench:knowledge-search -- --database-url postgres://postgres@127.0.0.1:5432/postgres
 *   … -- --sizes 10000                                             # only some sizes
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import { type Database, openDatabase } from '@cairn/db/client';
import { indexItem } from '../../apps/api/src/rag/index-chunks.ts';
import { warmLexicalIndex } from '../../apps/api/src/rag/lexical-index.ts';
import { lexicalSearch, lexicalSearchSql, retrieve } from '../../apps/api/src/rag/retrieve.ts';
import { modelCtxOf } from '../../apps/api/src/rag/test-fixtures.ts';
import { adminQuery, argValue } from '../lib.ts';
import { loadSciFact, percentile } from '../retrieval-quality/scifact.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataset = path.resolve(here, '../../../shared/datasets/scifact');
const SECTIONS_PER_ITEM = 20;
const PASSAGE_CHARS = 1000;
const QUERIES = 300;

const adminUrl = argValue('--database-url');
const sizes = (argValue('--sizes') ?? '10000,100000').split(',').map(Number);

/** Deterministic PRNG (mulberry32), so every run indexes the same passages. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const data = loadSciFact(dataset);
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const sentences = data.corpus.flatMap((doc) => [...segmenter.segment(doc.text)].map((s) => s.segment.trim()));
const titles = data.corpus.map((doc) => doc.title);

function passage(next: () => number): string {
  let text = '';
  while (text.length < PASSAGE_CHARS) text += `${sentences[Math.floor(next() * sentences.length)]} `;
  return text.trim();
}

let peakRss = 0;
const rssTimer = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 200);

async function benchSize(chunkCount: number) {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  if (adminUrl) {
    const name = `cairn_bench_ks_${process.pid}_${chunkCount}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: u.toString() });
    drop = () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else {
    database = await openDatabase({});
  }
  await database.migrate();
  const ctx = modelCtxOf(database);
  const [user] = (
    await database.query<{ id: number }>(
      `INSERT INTO users (email, username, password_hash) VALUES ('bench@example.test', 'bench', 'x') RETURNING id`,
    )
  ).rows;
  // A second application of the same size would double the load time; one neighbour with a
  // tenth of the chunks checks that scoping does not scan other applications' postings.
  const appIds: number[] = [];
  for (const name of ['Searched', 'Neighbour']) {
    const [app] = (
      await database.query<{ id: number }>(
        `INSERT INTO applications (owner_id, name) VALUES ($1, $2) RETURNING id`,
        [user!.id, name],
      )
    ).rows;
    appIds.push(app!.id);
  }
  const next = random(chunkCount);
  const started = performance.now();
  const load = async (applicationId: number, count: number) => {
    for (let done = 0; done < count; done += SECTIONS_PER_ITEM) {
      const title = titles[Math.floor(next() * titles.length)]!;
      const [item] = (
        await database.query<{ id: number }>(
          `INSERT INTO knowledge_items (application_id, type, title, status) VALUES ($1, 'text', $2, 'ready') RETURNING id`,
          [applicationId, title],
        )
      ).rows;
      const sections = Array.from({ length: Math.min(SECTIONS_PER_ITEM, count - done) }, () => ({
        text: passage(next),
      }));
      await indexItem(ctx, {
        applicationId,
        itemId: item!.id,
        document: { title, language: 'en', sections },
        llmModels: DEFAULT_LLM_MODELS,
      });
    }
  };
  await load(appIds[0]!, chunkCount);
  await load(appIds[1]!, Math.round(chunkCount / 10));
  const loadSeconds = (performance.now() - started) / 1000;
  if (database.kind === 'postgres') await database.query('VACUUM ANALYZE');
  else await database.query('ANALYZE');
  const [{ postings } = { postings: 0 }] = (
    await database.query<{ postings: number }>('SELECT count(*)::int AS postings FROM knowledge_postings')
  ).rows;

  const app = { id: appIds[0]!, llmModels: DEFAULT_LLM_MODELS };
  const queries = data.queries.slice(0, QUERIES).map((q) => q.text);
  const noPruning = { largeCollection: Number.MAX_SAFE_INTEGER, commonWordFraction: 1 };
  const time = async (run: (q: string) => Promise<unknown>) => {
    const latencies: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      await run(q);
      latencies.push(performance.now() - t);
    }
    return latencies.sort((a, b) => a - b);
  };
  const ms = (sorted: number[]) =>
    `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;

  // BM25_SQL alone (what every search cost before the in-process copy, and still costs while the
  // copy is being built or out of date). Top 50: what `retrieve` asks of the lexical ranking.
  for (const q of queries.slice(0, 20)) await lexicalSearchSql(database, app.id, q, 50); // warm caches
  const sql = await time((q) => lexicalSearchSql(database, app.id, q, 50));
  const sqlExact = await time((q) => lexicalSearchSql(database, app.id, q, 50, noPruning));

  const built = performance.now();
  const index = await warmLexicalIndex(database, app.id);
  const buildMs = performance.now() - built;
  if (!index) throw new Error('the lexical index was not built');
  let same = 0;
  for (const q of queries) {
    const [cached, reference] = [
      await lexicalSearch(database, app.id, q, 50),
      await lexicalSearchSql(database, app.id, q, 50),
    ];
    const close = cached.every(
      (r, i) =>
        r.id === reference[i]?.id && Math.abs(r.score - reference[i].score) <= 1e-9 * reference[i].score,
    );
    if (close && cached.length === reference.length) same++;
  }
  const lexical = await time((q) => lexicalSearch(database, app.id, q, 50));
  const lexicalExact = await time((q) => lexicalSearch(database, app.id, q, 50, noPruning));
  const latencies = await time((q) => retrieve(ctx, app, q, 5));

  console.log(
    `${database.kind} ${chunkCount.toLocaleString('en')} chunks (+${Math.round(chunkCount / 10).toLocaleString('en')} in a neighbour app, ${postings.toLocaleString('en')} postings, loaded in ${loadSeconds.toFixed(0)} s)\n` +
      `  retrieve top 5: ${ms(latencies)}\n` +
      `  lexical top 50, in-process copy: ${ms(lexical)}; without skipping common words ${ms(lexicalExact)}\n` +
      `  lexical top 50, BM25_SQL: ${ms(sql)}; without skipping common words ${ms(sqlExact)}\n` +
      `  copy: built in ${buildMs.toFixed(0)} ms, ${index.postings.toLocaleString('en')} postings, ~${(index.bytes / 1024 / 1024).toFixed(1)} MiB; ` +
      `same ranking and scores as BM25_SQL for ${same}/${queries.length} queries; peak RSS so far ${(peakRss / 1024 / 1024).toFixed(0)} MiB`,
  );
  await database.close();
  await drop?.();
}

try {
  for (const size of sizes) await benchSize(size);
} finally {
  clearInterval(rssTimer);
}
