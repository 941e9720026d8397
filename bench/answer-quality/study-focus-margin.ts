/**
 * Offline study of decision 081: the signals decision 075 left untried, rescored on the files
 * `run.ts --dump` writes, beside the relevance decision as landed. For each variant it prints the
 * share of answerable questions declined where 90 % of held-out ones are (calibration dumps pooled,
 * evaluation dump), the threshold decision 062's rule gives on the calibration dumps (the smallest,
 * in steps of 0.01, declining ≥ 92 % of held-out questions on every draw), the calibration draws'
 * mean of answerable questions declined there, and held-out / answerable declined at that threshold
 * on the evaluation dump and the bench's own sample.
 *
 *   npx tsx bench/answer-quality/study-focus-margin.ts --calibration s3.json,s8.json,s12.json,s16.json --evaluation s24e.json [--bench s24.json] [--only name]
 *
 * The variants recompute the decision's parts from the passages (whole-passage and near coverage,
 * title agreement) so that each can be changed alone; "recomputed" must equal "as landed".
 */
import fs from 'node:fs';
import {
  judgeRelevance,
  NO_COMBINER,
  sameTerm,
} from '../../apps/api/src/modules/chatrooms/answer/relevance.ts';
import { sentencesOf } from '../../apps/api/src/modules/chatrooms/answer/sentences.ts';
import { termsOf } from '../../apps/api/src/modules/chatrooms/answer/terms.ts';
import { argValue } from '../lib.ts';
import { type Dump, printVariants, quoted } from './study-report.ts';

/** One retrieved passage: which question terms (by index) it holds, in its frame, per sentence. */
interface Read {
  whole: Set<number>;
  frame: Set<number>;
  sentences: Set<number>[];
  title: string;
  /** The title's share of the knowledge's chunks (chance agreement). */
  titleShare: number;
  /** The share of the other retrieved passages under the same title. */
  others: number;
}
interface Question {
  answerable: boolean;
  weights: number[];
  df: number[];
  chunks: number;
  passages: Read[];
  /** `judgeRelevance` as landed, unrounded. */
  landed: number;
}

function questionsOf(dump: Dump): Question[] {
  const totalChunks = Object.values(dump.titleChunks).reduce((a, b) => a + b, 0);
  const titleChunks = new Map(Object.entries(dump.titleChunks));
  return dump.questions.map((q) => {
    const stats = {
      chunks: q.stats.chunks,
      df: new Map(Object.entries(q.stats.df)),
      stopWords: new Set(q.stats.stopWords),
    };
    const decision = judgeRelevance(q.question, q.passages, { ...stats, titleChunks }, undefined, {
      combiner: NO_COMBINER,
    });
    const terms = decision.weighted.map((w) => w.term);
    const match = (words: string[]) => {
      const found = new Set<number>();
      for (const word of words)
        for (let i = 0; i < terms.length; i++) if (sameTerm(word, terms[i]!)) found.add(i);
      return found;
    };
    const termDf = new Map<string, number>();
    for (const [word, count] of stats.df)
      for (const t of termsOf(word)) termDf.set(t, Math.max(termDf.get(t) ?? 0, count));
    const perTitle = new Map<string, number>();
    for (const p of q.passages) perTitle.set(p.item_title, (perTitle.get(p.item_title) ?? 0) + 1);
    return {
      answerable: q.answerable,
      weights: decision.weighted.map((w) => w.weight),
      df: terms.map((t) => termDf.get(t) ?? 0),
      chunks: stats.chunks,
      landed: Math.max(0, ...decision.coverage.values()),
      passages: q.passages.map((p) => {
        const frame = match(termsOf(`${p.item_title}\n${p.heading ?? ''}`));
        return {
          frame,
          whole: new Set([...frame, ...match(termsOf(p.content))]),
          sentences: sentencesOf(p.content).map((s) => match(termsOf(s))),
          title: p.item_title,
          titleShare: (dump.titleChunks[p.item_title] ?? 0) / Math.max(totalChunks, 1),
          others: (perTitle.get(p.item_title)! - 1) / Math.max(q.passages.length - 1, 1),
        };
      }),
    };
  });
}

type Weights = readonly number[];
const share = (found: ReadonlySet<number>, w: Weights) => {
  let hit = 0;
  let total = 0;
  for (let i = 0; i < w.length; i++) {
    total += w[i]!;
    if (found.has(i)) hit += w[i]!;
  }
  return total ? hit / total : 0;
};
/** The share held within the best `k` consecutive sentences, with the frame (the decision uses k = 2). */
const near = (p: Read, k: number, w: Weights) => {
  let best = 0;
  for (let i = 0; i < Math.max(p.sentences.length, 1); i++) {
    const found = new Set(p.frame);
    for (let j = 0; j < k; j++) for (const t of p.sentences[i + j] ?? []) found.add(t);
    best = Math.max(best, share(found, w));
  }
  return best;
};
/** Decision 075's title evidence. */
const title = (p: Read) => {
  const lift = p.titleShare >= 1 ? 0 : Math.max(0, (p.others - p.titleShare) / (1 - p.titleShare));
  return 0.2 * (lift - 0.4) * (1 - p.titleShare);
};
const best = (q: Question, f: (p: Read) => number) => q.passages.reduce((m, p) => Math.max(m, f(p)), 0);
/** Question terms in no chunk of the knowledge and in none of the passages. */
const absent = (q: Question) =>
  new Set(q.df.flatMap((df, i) => (df === 0 && !q.passages.some((p) => p.whole.has(i)) ? [i] : [])));
/** The weights with absent terms scaled by `f`. */
const absentTimes = (q: Question, f: number) => {
  const gone = absent(q);
  return q.weights.map((w, i) => (gone.has(i) ? f * w : w));
};
const lexical = (p: Read, w: Weights, k = 2) => (share(p.whole, w) + near(p, k, w)) / 2;
/**
 * The best passage's score beyond a background: the best score among passages under other titles
 * (what the question scores against unrelated documents), scaled by how informative titles are.
 */
const margin = (q: Question, w: Weights, a: number, centre: number) =>
  best(q, (p) => {
    const background = q.passages
      .filter((o) => o.title !== p.title)
      .reduce((m, o) => Math.max(m, lexical(o, w)), 0);
    return lexical(p, w) + title(p) + a * (lexical(p, w) - background - centre) * (1 - p.titleShare);
  });
/** The chance that six passages drawn at random hold each term, weighed: a background coverage. */
const chanceCoverage = (q: Question) => {
  let hit = 0;
  let total = 0;
  q.weights.forEach((w, i) => {
    total += w;
    hit += w * (1 - (1 - Math.min(q.df[i]! / Math.max(q.chunks, 1), 1)) ** 6);
  });
  return total ? hit / total : 0;
};

type Variant = (q: Question) => number;
const VARIANTS: Array<[string, Variant]> = [
  ['as landed', (q) => q.landed],
  ['recomputed (must equal as landed)', (q) => best(q, (p) => lexical(p, q.weights) + title(p))],
  ['near coverage in one sentence', (q) => best(q, (p) => lexical(p, q.weights, 1) + title(p))],
  ['near coverage in three sentences', (q) => best(q, (p) => lexical(p, q.weights, 3) + title(p))],
  ['whole passage only', (q) => best(q, (p) => share(p.whole, q.weights) + title(p))],
  [
    'document coverage: mean of whole, near, and the passages under its title together',
    (q) =>
      best(q, (p) => {
        const doc = new Set(q.passages.filter((o) => o.title === p.title).flatMap((o) => [...o.whole]));
        return (share(p.whole, q.weights) + near(p, 2, q.weights) + share(doc, q.weights)) / 3 + title(p);
      }),
  ],
  ...[0.1, 0.2, 0.3].map((a): [string, Variant] => [
    `− ${a} × chance coverage of six random passages`,
    (q) => best(q, (p) => lexical(p, q.weights) + title(p)) - a * chanceCoverage(q),
  ]),
  ...[0, 0.3, 0.6, 1.5, 2].map((f): [string, Variant] => [
    `terms absent from the knowledge weigh × ${f}`,
    (q) => best(q, (p) => lexical(p, absentTimes(q, f)) + title(p)),
  ]),
  ...[0.1, 0.2, 0.3].map((a): [string, Variant] => [
    `+ ${a} × (rarest matched term's weight / an absent term's − 0.7)`,
    (q) => {
      const top = 1 + Math.log(2 * q.chunks + 2);
      return best(
        q,
        (p) =>
          lexical(p, q.weights) +
          title(p) +
          a * ([...p.whole].reduce((m, i) => Math.max(m, q.weights[i]!), 0) / top - 0.7),
      );
    },
  ]),
  ...[0.1, 0.2].map((a): [string, Variant] => [
    `± ${a}/2: the two rarest known terms together in one sentence (focus)`,
    (q) => {
      const gone = absent(q);
      const focus = q.weights
        .map((w, i) => [w, i] as const)
        .filter(([, i]) => !gone.has(i))
        .sort((x, y) => y[0] - x[0])
        .slice(0, 2)
        .map(([, i]) => i);
      return best(q, (p) => {
        const together = p.sentences.some((s) => focus.every((i) => s.has(i) || p.frame.has(i)));
        return lexical(p, q.weights) + title(p) + a * ((together ? 1 : 0) - 0.5);
      });
    },
  ]),
  ...[0.2, 0.4, 0.6].flatMap((a) =>
    [0, 0.1, 0.2, 0.3].flatMap((centre) =>
      [1, 1.5].map((f): [string, Variant] => [
        `margin over other titles: a ${a}, centre ${centre}, absent terms × ${f}`,
        (q) => margin(q, absentTimes(q, f), a, centre),
      ]),
    ),
  ),
];

const read = (file: string) => questionsOf(quoted(JSON.parse(fs.readFileSync(file, 'utf8')) as Dump));
const calibration = (argValue('--calibration') ?? '').split(',').filter(Boolean).map(read);
const evaluation = read(argValue('--evaluation') ?? '');
const benchFile = argValue('--bench');
const bench = benchFile ? read(benchFile) : undefined;
const only = argValue('--only');

printVariants(VARIANTS, calibration, evaluation, bench, only);
