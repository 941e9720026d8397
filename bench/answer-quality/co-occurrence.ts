/**
 * Word relations a knowledge could derive at ingestion, for the studies (decision 101): per term, the
 * terms that co-occur with it most beyond chance (pointwise mutual information over the chunks that
 * hold both) in the SQuAD paragraphs a dump's knowledge holds (every article but its held-out ones).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { termsOf } from '../../apps/api/src/modules/chatrooms/answer/terms.ts';

const dataset = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../shared/datasets/squad-dev',
);

/** Terms in more chunks than this are left out: they co-occur with everything. */
const COMMON = 200;

/**
 * Term → its `k` strongest neighbours by PMI, among terms found together in at least `least`
 * paragraphs (PMI over pairs seen once or twice is mostly noise).
 */
export function coOccurring(heldOut: readonly string[], k: number, least: number): Map<string, Set<string>> {
  const held = new Set(heldOut);
  const docs = fs
    .readFileSync(path.join(dataset, 'paragraphs.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { _id: string; context: string })
    .filter((p) => !held.has(p._id.split('#')[0]!))
    .map((p) => [...new Set(termsOf(p.context))]);
  const df = new Map<string, number>();
  for (const doc of docs) for (const t of doc) df.set(t, (df.get(t) ?? 0) + 1);
  const together = new Map<string, Map<string, number>>();
  for (const doc of docs) {
    const kept = doc.filter((t) => df.get(t)! >= least && df.get(t)! <= COMMON);
    for (const a of kept) {
      const row = together.get(a) ?? new Map<string, number>();
      together.set(a, row);
      for (const b of kept) if (a !== b) row.set(b, (row.get(b) ?? 0) + 1);
    }
  }
  const related = new Map<string, Set<string>>();
  for (const [a, row] of together) {
    const pmi = [...row]
      .filter(([, n]) => n >= least)
      .map(([b, n]) => [b, Math.log((n * docs.length) / (df.get(a)! * df.get(b)!))] as const)
      .sort((x, y) => y[1] - x[1]);
    related.set(a, new Set(pmi.slice(0, k).map(([b]) => b)));
  }
  return related;
}
