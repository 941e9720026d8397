/**
 * The table the offline studies of the relevance decision print (decisions 075, 081): per variant
 * of the score, answerable questions declined where 90 % of held-out ones are (calibration dumps
 * pooled, evaluation dump), the threshold decision 062's rule gives on the calibration dumps (the
 * smallest, in steps of 0.01, declining ≥ 92 % of held-out questions on every draw), what that
 * threshold declines elsewhere, and what the product's threshold declines.
 */
import fs from 'node:fs';
import { COVERED_THRESHOLD } from '../../apps/api/src/modules/chatrooms/answer/relevance.ts';
import type { Passage } from '../../apps/api/src/rag/types.ts';
import { argValue } from '../lib.ts';

/** What `run.ts --dump` writes: each question's ranking (its first six quoted), word statistics and label. */
export interface Dump {
  titleChunks: Record<string, number>;
  questions: Array<{
    question: string;
    answerable: boolean;
    stats: { chunks: number; df: Record<string, number>; stopWords: string[] };
    passages: Passage[];
  }>;
}

/** The dumps a study reads, by file: `--calibration a,b --evaluation c [--bench d]`. */
export function studyDumps() {
  const files = {
    calibration: (argValue('--calibration') ?? '').split(',').filter(Boolean),
    evaluation: argValue('--evaluation') ?? '',
    bench: argValue('--bench'),
  };
  const dumps = new Map<string, Dump>();
  for (const file of [...files.calibration, files.evaluation, ...(files.bench ? [files.bench] : [])])
    dumps.set(file, JSON.parse(fs.readFileSync(file, 'utf8')) as Dump);
  return { files, dumps };
}

/**
 * The dump with only the six passages the answer quotes per question: the studies of decisions
 * 075 and 081 read those alone (dumps since decision 089 hold the first twenty of the ranking).
 */
export function quoted(dump: Dump): Dump {
  return { ...dump, questions: dump.questions.map((q) => ({ ...q, passages: q.passages.slice(0, 6) })) };
}

export interface Labelled {
  answerable: boolean;
}

export function printVariants<Q extends Labelled>(
  variants: ReadonlyArray<readonly [string, (q: Q) => number]>,
  calibration: Q[][],
  evaluation: Q[],
  bench: Q[] | undefined,
  only?: string,
  header = true,
): void {
  const split = (qs: Q[], f: (q: Q) => number) => ({
    answerable: qs.filter((q) => q.answerable).map(f),
    heldOut: qs.filter((q) => !q.answerable).map(f),
  });
  const below = (xs: number[], t: number) => xs.filter((x) => x < t).length / Math.max(xs.length, 1);
  const at90 = (qs: Q[], f: (q: Q) => number) => {
    const { answerable, heldOut } = split(qs, f);
    const sorted = [...heldOut].sort((a, b) => a - b);
    return below(answerable, sorted[Math.ceil(0.9 * sorted.length) - 1]! + 1e-9);
  };
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const declined = (s: { answerable: number[]; heldOut: number[] }, t: number) =>
    `${pct(below(s.heldOut, t))} / ${pct(below(s.answerable, t))}`;
  if (header)
    console.log(
      'variant | calibration @90 | evaluation @90 | rule threshold | calibration answerable declined (mean) | evaluation held-out / answerable declined | bench held-out / answerable declined | at the threshold in use: evaluation, bench',
    );
  for (const [name, f] of variants) {
    if (only && !name.includes(only)) continue;
    let threshold = 0.2;
    while (threshold < 1.5 && !calibration.every((d) => below(split(d, f).heldOut, threshold) >= 0.92))
      threshold = Math.round(threshold * 100 + 1) / 100;
    const calAnswerable = calibration.map((d) => below(split(d, f).answerable, threshold));
    const ev = split(evaluation, f);
    const be = bench && split(bench, f);
    console.log(
      [
        name,
        pct(at90(calibration.flat(), f)),
        pct(at90(evaluation, f)),
        threshold.toFixed(2),
        pct(calAnswerable.reduce((a, b) => a + b, 0) / calAnswerable.length),
        declined(ev, threshold),
        be ? declined(be, threshold) : '',
        // At the product's threshold, whatever the rule gives: the bench's own operating point.
        declined(ev, COVERED_THRESHOLD),
        be ? declined(be, COVERED_THRESHOLD) : '',
      ].join(' | '),
    );
  }
}
