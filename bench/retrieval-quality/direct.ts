/**
 * Retrieval quality through the indexing and retrieval functions directly (no HTTP): the quick
 * loop for tuning. `run.ts` measures the same end to end through the API.
 *
 *   npx tsx bench/retrieval-quality/direct.ts [--corpus scifact|squad] [--database-url postgres://…]
 */
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import { openDatabase } from '@cairn/db/client';
import { indexItem } from '../../apps/api/src/rag/index-chunks.ts';
import { retrieve } from '../../apps/api/src/rag/retrieve.ts';
import { modelCtxOf } from '../../apps/api/src/rag/test-fixtures.ts';
import { argValue } from '../lib.ts';
import { loadCorpus, percentile, scoreRanking } from './scifact.ts';

const databaseUrl = argValue('--database-url');
const corpus = await loadCorpus(argValue('--corpus'));
const { data } = corpus;
const database = await openDatabase({ databaseUrl });
await database.migrate();
const ctx = modelCtxOf(database);
const [user] = (
  await database.query<{ id: number }>(
    `INSERT INTO users (email, username, password_hash) VALUES ($1, $1, 'x') RETURNING id`,
    [`bench-${Date.now()}@example.test`],
  )
).rows;
const [app] = (
  await database.query<{ id: number }>(
    `INSERT INTO applications (owner_id, name) VALUES ($1, $2) RETURNING id`,
    [user!.id, corpus.name],
  )
).rows;
const applicationId = app!.id;

const docByItem = new Map<string, string>();
const languages = new Map<string, number>();
let chunks = 0;
const started = performance.now();
const cpuAtStart = process.cpuUsage();
for (const doc of data.corpus) {
  const [item] = (
    await database.query<{ id: number; uuid: string }>(
      `INSERT INTO knowledge_items (application_id, type, title, status) VALUES ($1, 'text', $2, 'processing') RETURNING id, uuid`,
      [applicationId, doc.title],
    )
  ).rows;
  docByItem.set(item!.uuid, doc.id);
  const result = await indexItem(ctx, {
    applicationId,
    itemId: item!.id,
    document: { title: doc.title, sections: [{ text: doc.text }] },
    llmModels: DEFAULT_LLM_MODELS,
  });
  chunks += result.chunkCount;
  if (docByItem.size % 1000 === 0)
    console.error(`… ${docByItem.size} indexed, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  languages.set(result.language ?? 'unknown', (languages.get(result.language ?? 'unknown') ?? 0) + 1);
}
const ingestSeconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuAtStart);
const ingestCpuSeconds = (cpu.user + cpu.system) / 1e6;

let ndcg = 0;
let recall = 0;
let rr = 0;
const latencies: number[] = [];
for (const query of data.queries) {
  const t = performance.now();
  const passages = await retrieve(ctx, { id: applicationId, llmModels: DEFAULT_LLM_MODELS }, query.text, 50);
  latencies.push(performance.now() - t);
  // Rank items by their best passage.
  const ranked = [...new Set(passages.map((p) => docByItem.get(p.item_uuid)!))];
  const s = scoreRanking(ranked, data.qrels.get(query.id)!, 10);
  ndcg += s.ndcg;
  recall += s.recall;
  rr += s.rr;
}
latencies.sort((a, b) => a - b);
console.log(`engine: ${database.kind}`);
console.log(`corpus: ${corpus.name}`);
console.log(
  `${corpus.document}: ${data.corpus.length}, chunks: ${chunks}, ingest: ${ingestSeconds.toFixed(1)} s (in-process), CPU time ${ingestCpuSeconds.toFixed(1)} s`,
);
console.log(`languages: ${JSON.stringify(Object.fromEntries(languages))}`);
console.log(`${corpus.query}: ${data.queries.length}`);
console.log(`nDCG@10: ${(ndcg / data.queries.length).toFixed(4)}`);
console.log(`Recall@10: ${(recall / data.queries.length).toFixed(4)}`);
console.log(`MRR@10: ${(rr / data.queries.length).toFixed(4)}`);
console.log(
  `query latency ms: p50 ${percentile(latencies, 50).toFixed(1)}, p95 ${percentile(latencies, 95).toFixed(1)}`,
);
await database.close();
