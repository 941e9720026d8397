/**
 * What switching items off costs search, on PGlite: BM25 in SQL and from the in-process copy with
 * no item off and with a tenth of the items off (decision 071), and how long after a switch the
 * copy answers again. SciFact sentences make the passages (a real vocabulary), its claims the
 * queries.
 *
 *   npx tsx bench/knowledge-switch/run.ts [--chunks 5000]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import { openDatabase } from '@cairn/db/client';
import { indexItem } from '../../apps/api/src/rag/index-chunks.ts';
import { lexicalIndexState, warmLexicalIndex } from '../../apps/api/src/rag/lexical-index.ts';
import { lexicalSearch, lexicalSearchSql } from '../../apps/api/src/rag/retrieve.ts';
import { modelCtxOf } from '../../apps/api/src/rag/test-fixtures.ts';
import { argValue } from '../lib.ts';
import { loadSciFact, percentile } from '../retrieval-quality/scifact.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const data = loadSciFact(path.resolve(here, '../../../shared/datasets/scifact'));
const CHUNKS = Number(argValue('--chunks') ?? 5000);
const PER_ITEM = 10;
const QUERIES = data.queries.slice(0, 200).map((q) => q.text);

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const sentences = data.corpus.flatMap((doc) => [...segmenter.segment(doc.text)].map((s) => s.segment.trim()));
/** Passage i: about 1,000 characters of consecutive sentences, deterministic. */
function passage(i: number): string {
  let text = '';
  for (let s = (i * 7) % sentences.length; text.length < 1000; s = (s + 1) % sentences.length)
    text += `${sentences[s]} `;
  return text.trim();
}

const database = await openDatabase({});
await database.migrate();
const ctx = modelCtxOf(database);
const user = (
  await database.query<{ id: number }>(
    `INSERT INTO users (email, username, password_hash) VALUES ('bench@example.test', 'bench', 'x') RETURNING id`,
  )
).rows[0]!;
const app = (
  await database.query<{ id: number }>(
    `INSERT INTO applications (owner_id, name) VALUES ($1, 'Switch') RETURNING id`,
    [user.id],
  )
).rows[0]!;
const itemIds: number[] = [];
for (let done = 0; done < CHUNKS; done += PER_ITEM) {
  const title = data.corpus[done % data.corpus.length]!.title;
  const item = (
    await database.query<{ id: number }>(
      `INSERT INTO knowledge_items (application_id, type, title, status) VALUES ($1, 'text', $2, 'ready') RETURNING id`,
      [app.id, title],
    )
  ).rows[0]!;
  itemIds.push(item.id);
  const sections = Array.from({ length: PER_ITEM }, (_, k) => ({ text: passage(done + k) }));
  await indexItem(ctx, {
    applicationId: app.id,
    itemId: item.id,
    document: { title, language: 'en', sections },
    llmModels: DEFAULT_LLM_MODELS,
  });
}
await database.query('ANALYZE');

async function time(run: (q: string) => Promise<unknown>): Promise<string> {
  for (const q of QUERIES.slice(0, 20)) await run(q);
  const latencies: number[] = [];
  for (const q of QUERIES) {
    const t = performance.now();
    await run(q);
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  return `p50 ${percentile(latencies, 50).toFixed(2)} ms, p95 ${percentile(latencies, 95).toFixed(2)} ms`;
}

/** Switches items as update-item.ts does: the flag and the version, in one transaction. */
async function switchItems(ids: number[], enabled: boolean) {
  await database.query('BEGIN');
  await database.query('UPDATE knowledge_items SET enabled = $1 WHERE id = ANY($2::int[])', [enabled, ids]);
  await database.query('UPDATE knowledge_index_stats SET version = version + 1 WHERE application_id = $1', [
    app.id,
  ]);
  await database.query('COMMIT');
}

const chunks = (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM knowledge_chunks'))
  .rows[0]!.n;
console.log(`PGlite, ${chunks} chunks in ${itemIds.length} items, ${QUERIES.length} SciFact claims, top 50`);
for (const off of [0, Math.round(itemIds.length / 10)]) {
  if (off)
    await switchItems(
      itemIds.filter((_, i) => i % 10 === 0),
      false,
    );
  console.log(
    `  ${off} items off: BM25 in SQL ${await time((q) => lexicalSearchSql(database, app.id, q, 50))}`,
  );
  await warmLexicalIndex(database, app.id);
  const before = lexicalIndexState(database, app.id)!.searches;
  console.log(
    `  ${off} items off: in-process copy ${await time((q) => lexicalSearch(database, app.id, q, 50))}`,
  );
  if (lexicalIndexState(database, app.id)!.searches - before < QUERIES.length)
    throw new Error('copy not used');
}
// A switch, then the first search (SQL, the copy is out of date) and a rebuilt copy.
await switchItems([itemIds[1]!], false);
let t = performance.now();
await lexicalSearch(database, app.id, QUERIES[0]!, 50);
const firstSearch = performance.now() - t;
t = performance.now();
await warmLexicalIndex(database, app.id);
console.log(
  `  after a switch: first search ${firstSearch.toFixed(1)} ms (SQL), copy rebuilt in ${(performance.now() - t).toFixed(0)} ms`,
);
await database.close();
