import fs from 'node:fs';
import path from 'node:path';
import type { RetrievalSet } from './scifact.ts';

/**
 * SQuAD v1.1 development paragraphs as a retrieval set (see its README): every paragraph is a
 * document titled with its article's title, every question a query whose one relevant document
 * is the paragraph that holds its answer. Unlike SciFact, questions are short and paraphrase
 * their paragraph, and ~50 paragraphs share each title.
 */
export function loadSquad(dir: string): RetrievalSet {
  const lines = (file: string) =>
    fs
      .readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
  const corpus = lines('paragraphs.jsonl').map((line) => {
    const row = JSON.parse(line) as { _id: string; title: string; context: string };
    return { id: row._id, title: row.title, text: row.context };
  });
  const qrels = new Map<string, Set<string>>();
  const queries = lines('questions.jsonl').map((line) => {
    const row = JSON.parse(line) as { _id: string; pid: string; question: string };
    qrels.set(row._id, new Set([row.pid]));
    return { id: row._id, text: row.question };
  });
  return { corpus, queries, qrels };
}
