/**
 * Offline study of decision 089: evidence beyond the six quoted passages. Reads dumps written with
 * `run.ts --dump` (each question's ranking of twenty) and rescores them: decision 086's over the first six passages,
 * and candidate signals read from all twenty (title agreement over more passages, the question's
 * subject words found under the best passage's title) or from the knowledge as a whole (question
 * words absent from every chunk, as a second dimension of the threshold). Prints decision 081's
 * table (study-report.ts) per variant.
 *
 *   npx tsx bench/answer-quality/study-subject.ts --calibration s3.json,s8.json,s12.json,s16.json --evaluation s24e.json [--bench s24.json] [--only name]
 */
import {
  COVERED_THRESHOLD,
  judgeRelevance,
  NO_COMBINER,
  sameTerm,
} from '../../apps/api/src/modules/chatrooms/answer/relevance.ts';
import { termsOf } from '../../apps/api/src/modules/chatrooms/answer/terms.ts';
import { argValue } from '../lib.ts';
import { type Dump, printVariants, studyDumps } from './study-report.ts';

type Question = Dump['questions'][number] & { pid: string };

interface Features {
  answerable: boolean;
  /** Decision 086's: the first six passages alone. */
  landed: number;
  /** Decision 086's over the dump's first twenty passages. */
  wide: () => number;
  /** Share of the question's weight on terms no chunk holds. */
  absentShare: number;
  /** Whether the question has a term no chunk holds. */
  absent: boolean;
  /** Title agreement of the best six's best passage, read over n passages: others of its title beyond chance. */
  agreement: (n: number) => number;
  /** Share of the question's weight found anywhere under the best passage's title among the first n passages. */
  documentCoverage: (n: number) => number;
  /** The decision over the first six with title agreement read over the first n passages, its weight and centre. */
  agreed: (n: number, weight: number, centre: number) => number;
  /** Whether the question's paragraph is among the first six. */
  retrieved: boolean;
}

/** Weight and centre of title agreement read over the wider ranking, beside the six's (0.2, 0.4). */
const AGREEMENT: Array<[number, number]> = [
  [0, 0.4],
  [0.05, 0.4],
  [0.05, 0.3],
  [0.05, 0.5],
  [0.1, 0.4],
  [0.1, 0.3],
  [0.1, 0.5],
  [0.15, 0.4],
];

/** `f` remembered per argument list: the report calls each variant once per threshold tried. */
function remembered<A extends unknown[]>(f: (...args: A) => number): (...args: A) => number {
  const known = new Map<string, number>();
  return (...args) => {
    const key = args.join(' ');
    let value = known.get(key);
    if (value === undefined) {
      value = f(...args);
      known.set(key, value);
    }
    return value;
  };
}

function featuresOf(dump: Dump): Features[] {
  const titleChunks = new Map(Object.entries(dump.titleChunks));
  return dump.questions.map((raw) => {
    const q = raw as Question;
    const stats = {
      chunks: q.stats.chunks,
      df: new Map(Object.entries(q.stats.df)),
      stopWords: new Set(q.stats.stopWords),
      titleChunks,
    };
    const six = q.passages.slice(0, 6);
    const decision = judgeRelevance(q.question, six, stats, undefined, { combiner: NO_COMBINER });
    const landed = Math.max(0, ...decision.coverage.values());
    const termDf = new Map<string, number>();
    for (const [word, count] of stats.df)
      for (const t of termsOf(word)) termDf.set(t, Math.max(termDf.get(t) ?? 0, count));
    const weighted = decision.weighted;
    const total = weighted.reduce((s, w) => s + w.weight, 0) || 1;
    const inPassages = (term: string) =>
      six.some((p) => termsOf(`${p.item_title}\n${p.content}`).some((t) => sameTerm(t, term)));
    const absentTerms = weighted.filter((w) => (termDf.get(w.term) ?? 0) === 0 && !inPassages(w.term));
    const best = six.find((p) => decision.coverage.get(p.chunk_id) === landed) ?? six[0];
    const chance = best
      ? Math.min((titleChunks.get(best.item_title) ?? 0) / Math.max(stats.chunks, 1), 1)
      : 1;
    // Read only by the variants that ask (`--only` then runs in seconds, not minutes).
    const agreed = remembered((n: number, w: number, c: number) =>
      Math.max(
        0,
        ...judgeRelevance(q.question, six, stats, undefined, {
          combiner: NO_COMBINER,
          ranking: q.passages.slice(0, n),
          agreement: { weight: 0.2, centre: 0.4, rankingWeight: w, rankingCentre: c },
        }).coverage.values(),
      ),
    );
    return {
      answerable: q.answerable,
      agreed,
      landed,
      wide: remembered(() =>
        Math.max(
          0,
          ...judgeRelevance(q.question, q.passages.slice(0, 20), stats, undefined, {
            combiner: NO_COMBINER,
          }).coverage.values(),
        ),
      ),
      absentShare: absentTerms.reduce((s, w) => s + w.weight, 0) / total,
      absent: absentTerms.length > 0,
      agreement: remembered((n: number) => {
        const ps = q.passages.slice(0, n);
        if (!best || ps.length < 2 || chance >= 1) return 0;
        const others = (ps.filter((p) => p.item_title === best.item_title).length - 1) / (ps.length - 1);
        return Math.max(0, (others - chance) / (1 - chance));
      }),
      documentCoverage: remembered((n: number) => {
        if (!best) return 0;
        const terms = q.passages
          .slice(0, n)
          .filter((p) => p.item_title === best.item_title)
          .flatMap((p) => termsOf(`${p.item_title}\n${p.content}`));
        return (
          weighted.filter((w) => terms.some((t) => sameTerm(t, w.term))).reduce((s, w) => s + w.weight, 0) /
          total
        );
      }),
      retrieved: six.some((p) => (p as { paragraph?: string }).paragraph === q.pid),
    };
  });
}

const { files, dumps } = studyDumps();
const load = (file: string) => featuresOf(dumps.get(file)!);
const calibration = files.calibration.map(load);
const evaluation = load(files.evaluation);
const bench = files.bench ? load(files.bench) : undefined;

const variants: Array<readonly [string, (f: Features) => number]> = [
  ['before (086: the six passages alone)', (f) => f.landed],
  // 25: the longest ranking with the candidates of six (`candidatesFor`); 25 and 50 need dumps of a
  // longer ranking (a dump of 20 reads 20).
  ...[10, 20, 25, 50].flatMap((n) =>
    AGREEMENT.map(
      ([w, c]) =>
        [
          `+ title agreement over the first ${n}: ${w} × (agreement − ${c}) × (1 − chance)`,
          (f: Features) => f.agreed(n, w, c),
        ] as const,
    ),
  ),
  ['decision over twenty passages', (f) => f.wide()],
  ...[0.05, 0.1, 0.15, 0.2].map(
    (d) =>
      [
        `+ ${d} when every question word is in the knowledge`,
        (f: Features) => f.landed + (f.absent ? 0 : d),
      ] as const,
  ),
  ...[0.1, 0.2, 0.3].map(
    (w) => [`− ${w} × absent share`, (f: Features) => f.landed - w * f.absentShare] as const,
  ),
  ...[10, 20].flatMap((n) =>
    [0.05, 0.1, 0.2].map(
      (w) =>
        [
          `+ ${w} × (agreement over ${n} − 0.4)`,
          (f: Features) => f.landed + w * (f.agreement(n) - 0.4),
        ] as const,
    ),
  ),
  ...[6, 20].flatMap((n) =>
    [0.1, 0.2].map(
      (w) =>
        [
          `+ ${w} × (document coverage over ${n} − landed)`,
          (f: Features) => f.landed + w * (f.documentCoverage(n) - f.landed),
        ] as const,
    ),
  ),
  ...[0.03, 0.06, 0.1].map(
    (m) =>
      [`the better of six, and twenty less ${m}`, (f: Features) => Math.max(f.landed, f.wide() - m)] as const,
  ),
  ...[0.05, 0.1].map(
    (d) =>
      [
        `+ ${d} when every word is known, + 0.2 × (document coverage over 20 − landed)`,
        (f: Features) => f.landed + (f.absent ? 0 : d) + 0.2 * (f.documentCoverage(20) - f.landed),
      ] as const,
  ),
];
const only = argValue('--only');
printVariants(variants, calibration, evaluation, bench, only);
// Per variant, the evaluation dump's answerable questions declined at the threshold in use, and how
// many of them do not have their paragraph among the six quoted passages (no decision takes those back).
for (const [name, f] of variants) {
  if (only && !name.includes(only)) continue;
  const declined = evaluation.filter((q) => q.answerable && f(q) < COVERED_THRESHOLD);
  console.log(
    `${name} | evaluation at ${COVERED_THRESHOLD}: ${declined.length} of ${evaluation.filter((q) => q.answerable).length} answerable declined, ${declined.filter((q) => !q.retrieved).length} of them without their paragraph among the six`,
  );
}
