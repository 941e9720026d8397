import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Documents, queries and which documents answer each query. */
export interface RetrievalSet {
  corpus: Array<{ id: string; title: string; text: string }>;
  queries: Array<{ id: string; text: string }>;
  /** query id → ids of the documents that answer it. */
  qrels: Map<string, Set<string>>;
}

/** SciFact in BEIR layout (see its README): abstracts, training claims and their relevant abstracts. */
export function loadSciFact(dir: string): RetrievalSet {
  const lines = (file: string) =>
    fs
      .readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
  const corpus = lines('corpus.jsonl').map((line) => {
    const row = JSON.parse(line) as { _id: string; title: string; text: string };
    return { id: row._id, title: row.title, text: row.text };
  });
  const qrels = new Map<string, Set<string>>();
  for (const line of lines('qrels-train.tsv').slice(1)) {
    const [queryId, docId, score] = line.split('\t');
    if (!queryId || !docId || Number(score) <= 0) continue;
    if (!qrels.has(queryId)) qrels.set(queryId, new Set());
    qrels.get(queryId)!.add(docId);
  }
  const queries = lines('queries-train.jsonl')
    .map((line) => JSON.parse(line) as { _id: string; text: string })
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { corpus, queries, qrels };
}

/**
 * nDCG@k with binary relevance, Recall@k and the reciprocal rank of the first relevant document
 * within k (MRR@k once averaged) of one ranked list of document ids.
 */
export function scoreRanking(
  ranked: string[],
  relevant: Set<string>,
  k: number,
): { ndcg: number; recall: number; rr: number } {
  let dcg = 0;
  let hits = 0;
  let rr = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) {
      dcg += 1 / Math.log2(i + 2);
      hits++;
      if (rr === 0) rr = 1 / (i + 1);
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return {
    ndcg: ideal === 0 ? 0 : dcg / ideal,
    recall: relevant.size === 0 ? 0 : hits / relevant.size,
    rr,
  };
}

/** The retrieval set named by `--corpus` (scifact, the default, or squad) from ../shared/datasets. */
export async function loadCorpus(
  name: string | undefined,
): Promise<{ name: string; data: RetrievalSet; document: string; query: string }> {
  const datasets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/datasets');
  if (name === 'squad') {
    const { loadSquad } = await import('./squad.ts');
    return {
      name,
      data: loadSquad(path.join(datasets, 'squad-dev')),
      document: 'paragraphs',
      query: 'questions',
    };
  }
  if (name !== undefined && name !== 'scifact') throw new Error(`unknown corpus ${name} (scifact, squad)`);
  return {
    name: 'scifact',
    data: loadSciFact(path.join(datasets, 'scifact')),
    document: 'abstracts',
    query: 'claims',
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
