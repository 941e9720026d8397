/**
 * Knowledge search latency at 10k and 100k chunks, on PGlite and on PostgreSQL, with the built-in
 * (BM25) retrieval. The chunks are passages recombined from SciFact sentences (a real scientific
 * vocabulary and word-frequency distribution), indexed through `indexItem` like ingestion does;
 * the queries are SciFact claims. Prints p50/p95 of `retrieve` (top 5) and the peak RSS of this
 * process (which, on PGlite, holds the database too).
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
import { lexicalSearch, retrieve } from '../../apps/api/src/rag/retrieve.ts';
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
      await indexItem(database, {
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
  for (const q of queries.slice(0, 20)) await retrieve(database, app, q, 5); // warm caches
  const latencies: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await retrieve(database, app, q, 5);
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  // The same BM25 without skipping common words (what applications under LARGE_COLLECTION get).
  const exact: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await lexicalSearch(database, app.id, q, 5, {
      largeCollection: Number.MAX_SAFE_INTEGER,
      commonWordFraction: 1,
    });
    exact.push(performance.now() - t);
  }
  exact.sort((a, b) => a - b);
  console.log(
    `${database.kind} ${chunkCount.toLocaleString('en')} chunks (+${Math.round(chunkCount / 10).toLocaleString('en')} in a neighbour app, ${postings.toLocaleString('en')} postings, loaded in ${loadSeconds.toFixed(0)} s): ` +
      `search p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms; ` +
      `BM25 without skipping common words p50 ${percentile(exact, 50).toFixed(1)} ms, p95 ${percentile(exact, 95).toFixed(1)} ms; ` +
      `peak RSS so far ${(peakRss / 1024 / 1024).toFixed(0)} MiB`,
  );
  await database.close();
  await drop?.();
}

try {
  for (const size of sizes) await benchSize(size);
} finally {
  clearInterval(rssTimer);
}
