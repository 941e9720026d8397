/**
 * Offline study of the relevance decision (decision 075): reads files written by
 * `run.ts --dump` (each question's six retrieved passages, word statistics and label), rescoring
 * them with `judgeRelevance` plus candidate signals, and prints for each variant the share of
 * answerable questions declined where 90 % of held-out ones are, on the calibration dumps and the
 * evaluation dump, and what the calibration rule of decision 062 (the smallest threshold, in steps
 * of 0.01, that declines ≥ 92 % of held-out questions on every calibration draw) gives elsewhere.
 *
 *   npx tsx bench/answer-quality/study-signals.ts --calibration s3.json,s8.json,s12.json,s16.json --evaluation s24e.json [--bench s24.json]
 */
import fs from 'node:fs';
import {
  judgeRelevance,
  NO_COMBINER,
  sameTerm,
} from '../../apps/api/src/modules/chatrooms/answer/relevance.ts';
import { termsOf } from '../../apps/api/src/modules/chatrooms/answer/terms.ts';
import { argValue } from '../lib.ts';
import { type Dump, printVariants, quoted } from './study-report.ts';

/** What a variant reads of one question. */
interface Features {
  answerable: boolean;
  /** Per retrieved passage: today's coverage, proper nouns of the question it misses, agreement on its title. */
  passages: Array<{
    coverage: number;
    missedNames: number;
    sameTitle: number;
    others: number;
    titleShare: number;
  }>;
  terms: number;
  /** The decision as landed: the best passage's coverage by `judgeRelevance` given the knowledge's chunks per title. */
  landed: number;
  /** Question terms found neither in the knowledge's statistics nor in any passage. */
  absent: number;
}

function featuresOf(dump: Dump): Features[] {
  const totalChunks = Object.values(dump.titleChunks).reduce((a, b) => a + b, 0);
  return dump.questions.map((q) => {
    const stats = {
      chunks: q.stats.chunks,
      df: new Map(Object.entries(q.stats.df)),
      stopWords: new Set(q.stats.stopWords),
    };
    const decision = judgeRelevance(q.question, q.passages, stats, undefined, { combiner: NO_COMBINER });
    const termDf = new Map<string, number>();
    for (const [word, count] of stats.df)
      for (const t of termsOf(word)) termDf.set(t, Math.max(termDf.get(t) ?? 0, count));
    const passageTerms = q.passages.map((p) => termsOf(`${p.item_title}\n${p.heading ?? ''}\n${p.content}`));
    const holds = (terms: string[], term: string) => terms.some((t) => sameTerm(t, term));
    // Capitalised words after the first: the names a covering passage must hold.
    const words = q.question.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
    const names = [
      ...new Set(
        words
          .slice(1)
          .filter((w) => /^\p{Lu}/u.test(w))
          .flatMap((w) => termsOf(w)),
      ),
    ];
    const titleChunks = new Map(Object.entries(dump.titleChunks));
    return {
      answerable: q.answerable,
      terms: decision.weighted.length,
      // Unrounded (the decision compares these; its `score` is rounded for storage).
      landed: Math.max(
        0,
        ...judgeRelevance(q.question, q.passages, { ...stats, titleChunks }, undefined, {
          combiner: NO_COMBINER,
        }).coverage.values(),
      ),
      absent: decision.weighted.filter(
        (w) => !termDf.get(w.term) && !passageTerms.some((terms) => holds(terms, w.term)),
      ).length,
      passages: q.passages.map((p, i) => ({
        coverage: decision.coverage.get(p.chunk_id) ?? 0,
        missedNames: names.filter((n) => !holds(passageTerms[i]!, n)).length,
        sameTitle: q.passages.filter((o) => o.item_title === p.item_title).length / q.passages.length,
        others:
          (q.passages.filter((o) => o.item_title === p.item_title).length - 1) /
          Math.max(q.passages.length - 1, 1),
        titleShare: (dump.titleChunks[p.item_title] ?? 0) / Math.max(totalChunks, 1),
      })),
    };
  });
}

type Variant = (q: Features) => number;
const best = (q: Features, f: (p: Features['passages'][number]) => number) =>
  q.passages.reduce((m, p) => Math.max(m, f(p)), 0);
/**
 * How many of the other passages share this one's title, beyond what the title's share of the
 * knowledge gives by chance: 0 for a passage alone of its title and in a one-document knowledge.
 */
const lift = (p: Features['passages'][number]) =>
  p.titleShare >= 1 ? 0 : Math.max(0, (p.others - p.titleShare) / (1 - p.titleShare));
const lengthShift = (q: Features, a: number) => a * (Math.log(1 + q.terms) - Math.log(5));

const VARIANTS: Array<[string, Variant]> = [
  ['today (coverage)', (q) => best(q, (p) => p.coverage)],
  [
    '− 0.2 when a term is absent from the knowledge',
    (q) => best(q, (p) => p.coverage) - (q.absent ? 0.2 : 0),
  ],
  [
    '+ 0.1·ln(1 + terms) (longer questions need a smaller share)',
    (q) => best(q, (p) => p.coverage) + lengthShift(q, 0.1),
  ],
  ['− 0.08 per proper noun the passage misses', (q) => best(q, (p) => p.coverage - 0.08 * p.missedNames)],
  ['length + proper nouns', (q) => best(q, (p) => p.coverage - 0.08 * p.missedNames) + lengthShift(q, 0.1)],
  [
    '+ 0.2 × share of the six under the same title (no base rate)',
    (q) => best(q, (p) => p.coverage + 0.2 * p.sameTitle),
  ],
  ['+ 0.2 × title agreement beyond chance (lift)', (q) => best(q, (p) => p.coverage + 0.2 * lift(p))],
  ['+ 0.3 × title agreement beyond chance (lift)', (q) => best(q, (p) => p.coverage + 0.3 * lift(p))],
  ['+ 0.4 × title agreement beyond chance (lift)', (q) => best(q, (p) => p.coverage + 0.4 * lift(p))],
  ...[0.3, 0.35, 0.4, 0.45].map((centre): [string, Variant] => [
    `+ 0.2 × (lift − ${centre}) × (1 − chance): a passage alone of its title loses, a one-document knowledge is neutral`,
    (q) => best(q, (p) => p.coverage + 0.2 * (lift(p) - centre) * (1 - p.titleShare)),
  ]),
  ...[0.4, 0.45].map((centre): [string, Variant] => [
    `+ 0.3 × (lift − ${centre}) × (1 − chance)`,
    (q) => best(q, (p) => p.coverage + 0.3 * (lift(p) - centre) * (1 - p.titleShare)),
  ]),
  ["as landed: judgeRelevance with the knowledge's chunks per title", (q) => q.landed],
  [
    'lift 0.3 + length + proper nouns',
    (q) => best(q, (p) => p.coverage + 0.3 * lift(p) - 0.08 * p.missedNames) + lengthShift(q, 0.1),
  ],
];

const read = (file: string) => featuresOf(quoted(JSON.parse(fs.readFileSync(file, 'utf8')) as Dump));
const calibration = (argValue('--calibration') ?? '').split(',').filter(Boolean).map(read);
const evaluation = read(argValue('--evaluation') ?? '');
const benchFile = argValue('--bench');
const bench = benchFile ? read(benchFile) : undefined;

printVariants(VARIANTS, calibration, evaluation, bench);
