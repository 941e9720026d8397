/**
 * Offline study of decision 093: a fitted combiner of the signals the earlier studies read one at a
 * time. Per question it reads, from a dump of `run.ts --dump` (the ranking's first twenty, of which
 * the decision quotes six), decision 089's score (`landed`: `judgeRelevance` with `NO_COMBINER`) and
 * fifteen signals around it (and decision 101's five candidates); it fits a logistic regression (answerable against held-out) or a few
 * stumps on the calibration dumps only, puts the result on the decision's own scale (landed +
 * Σ wᵢ·(signalᵢ − meanᵢ), shifted so that decision 062's rule gives the threshold in use), and
 * prints first, per variant, answerable questions declined where 92 % of held-out ones are,
 * cross-validated over the four calibration draws (fitted on three, read on the fourth: what the
 * variants are chosen by) and on the evaluation dump (where 90 % and 92 % are); then decision 081's
 * table (study-report.ts).
 *
 *   npx tsx bench/answer-quality/study-combiner.ts --calibration s3.json,s8.json,s12.json,s16.json --evaluation s24e.json [--bench s24.json] [--only name] [--weights] [--backward] [--forward]
 *
 * `--weights` prints each fitted variant's weights on the decision's scale; `--backward` and
 * `--forward` add the signal sets that backward elimination and forward selection keep, judged by
 * the cross-validated share alone (a minute or two).
 */
import fs from 'node:fs';
import {
  hasAnswerOfType,
  questionTypeOf,
} from '../../apps/api/src/modules/chatrooms/answer/question-type.ts';
import {
  COVERED_THRESHOLD,
  judgeRelevance,
  NO_COMBINER,
  sameTerm,
  weightedCoverage,
} from '../../apps/api/src/modules/chatrooms/answer/relevance.ts';
import { sentencesOf } from '../../apps/api/src/modules/chatrooms/answer/sentences.ts';
import { termsOf } from '../../apps/api/src/modules/chatrooms/answer/terms.ts';
import { argValue } from '../lib.ts';
import { coOccurring } from './co-occurrence.ts';
import { type Dump, printVariants } from './study-report.ts';

/** The signals a combiner may read, each a number per question. */
const SIGNALS = [
  /** Decision 089's score: the best of the six quoted passages. */
  'landed',
  /** The best passage's share of the question's weight in its whole text (no proximity, no title evidence). */
  'whole',
  /** Share of the question's weight on terms that no chunk of the knowledge and no passage holds. */
  'absentShare',
  /** ln(1 + the question's content terms). */
  'terms',
  /** The best passage's title agreement among the six, beyond chance (075's lift). */
  'agreement6',
  /** The same over the ranking's first twenty (089). */
  'agreement20',
  /** The best passage's title's share of the knowledge's chunks. */
  'chance',
  /** The best score minus the best score of a passage under another title (081's margin). */
  'margin',
  /** Distinct titles among the first twenty, as a share of twenty. */
  'titles20',
  /** The heaviest question term the best passage lacks, as a share of the question's weight. */
  'missingMax',
  /** The mean score of the six. */
  'mean6',
  /** Share of the question's weight found under the best passage's title among the first twenty. */
  'document20',
  /** Whether the best passage is the first of the ranking. */
  'bestFirst',
  /** Share of the question's consecutive content terms found together (within three words) in the best passage. */
  'phrase',
  /** The best single sentence's share of the question's weight (no title). */
  'sentence',
  /** A question asking for a date, number or name whose best passage has no sentence holding one and a question term. */
  'untyped',
  // Decision 101's candidates:
  /** The heaviest weight among the question terms the best passage holds, over the heaviest a term can weigh. */
  'matchedMax',
  /** The weight the best passage holds, in absolute terms, over the heaviest a term can weigh. */
  'matchedSum',
  /** The question's mean term weight, over the heaviest a term can weigh (generic questions weigh little). */
  'meanWeight',
  /** Share of the question's weight the best passage lacks but holds one of its five strongest co-occurring terms of (`co-occurrence.ts`). */
  'related',
  /** The best score minus the second best of the six (any title). */
  'gap',
] as const;
type Signal = (typeof SIGNALS)[number];
type Row = Record<Signal, number> & {
  answerable: boolean;
  /** Whether the question's paragraph is among the six quoted passages. */
  retrieved: boolean;
};

function rowsOf(dump: Dump): Row[] {
  const titleChunks = new Map(Object.entries(dump.titleChunks));
  const neighbours = coOccurring((dump as Dump & { heldOut: string[] }).heldOut, 5, 2);
  return dump.questions.map((q) => {
    const stats = {
      chunks: q.stats.chunks,
      df: new Map(Object.entries(q.stats.df)),
      stopWords: new Set(q.stats.stopWords),
      titleChunks,
    };
    const twenty = q.passages.slice(0, 20);
    const six = twenty.slice(0, 6);
    const decision = judgeRelevance(q.question, six, stats, undefined, {
      combiner: NO_COMBINER,
      ranking: twenty,
    });
    const scores = six.map((p) => decision.coverage.get(p.chunk_id) ?? 0);
    const landed = Math.max(0, ...scores);
    const bestRank = Math.max(0, scores.indexOf(landed));
    const best = six[bestRank];
    const weighted = decision.weighted;
    const total = weighted.reduce((s, w) => s + w.weight, 0) || 1;
    const textOf = (p: (typeof six)[number]) => termsOf(`${p.item_title}\n${p.heading ?? ''}\n${p.content}`);
    const bestTerms = best ? textOf(best) : [];
    const termDf = new Map<string, number>();
    for (const [word, count] of stats.df)
      for (const t of termsOf(word)) termDf.set(t, Math.max(termDf.get(t) ?? 0, count));
    const absent = weighted.filter(
      (w) => (termDf.get(w.term) ?? 0) === 0 && !six.some((p) => textOf(p).some((t) => sameTerm(t, w.term))),
    );
    const chance = best
      ? Math.min((titleChunks.get(best.item_title) ?? 0) / Math.max(stats.chunks, 1), 1)
      : 1;
    const lift = (n: number) => {
      const ps = twenty.slice(0, n);
      if (!best || ps.length < 2 || chance >= 1) return 0;
      const others = (ps.filter((p) => p.item_title === best.item_title).length - 1) / (ps.length - 1);
      return Math.max(0, (others - chance) / (1 - chance));
    };
    const background = Math.max(
      0,
      ...six.flatMap((p, i) => (best && p.item_title !== best.item_title ? [scores[i]!] : [])),
    );
    const document = twenty.filter((p) => best && p.item_title === best.item_title).flatMap((p) => textOf(p));
    const questionTerms = termsOf(q.question).filter((t) => weighted.some((w) => w.term === t));
    const pairs = questionTerms.slice(1).map((t, i) => [questionTerms[i]!, t] as const);
    const contentTerms = best ? termsOf(best.content) : [];
    const together = pairs.filter(([a, b]) =>
      contentTerms.some(
        (t, i) => sameTerm(t, a) && contentTerms.slice(i + 1, i + 4).some((u) => sameTerm(u, b)),
      ),
    ).length;
    const sentences = best ? sentencesOf(best.content) : [];
    const type = questionTypeOf(q.question);
    const asked = new Set(q.question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
    const typedSentence = sentences.some(
      (s) => hasAnswerOfType(type, s, asked) && weightedCoverage(weighted, termsOf(s)) > 0,
    );
    return {
      answerable: q.answerable,
      retrieved: six.some((p) => (p as { paragraph?: string }).paragraph === (q as { pid?: string }).pid),
      landed,
      phrase: pairs.length ? together / pairs.length : 0,
      sentence: Math.max(0, ...sentences.map((s) => weightedCoverage(weighted, termsOf(s)))),
      untyped: type !== 'other' && !typedSentence ? 1 : 0,
      whole: weightedCoverage(weighted, bestTerms),
      absentShare: absent.reduce((s, w) => s + w.weight, 0) / total,
      terms: Math.log(1 + weighted.length),
      agreement6: lift(6),
      agreement20: lift(20),
      chance,
      margin: landed - background,
      titles20: new Set(twenty.map((p) => p.item_title)).size / 20,
      missingMax:
        weighted
          .filter((w) => !bestTerms.some((t) => sameTerm(t, w.term)))
          .reduce((m, w) => Math.max(m, w.weight), 0) / total,
      mean6: scores.reduce((a, b) => a + b, 0) / Math.max(scores.length, 1),
      document20: weightedCoverage(weighted, document),
      bestFirst: bestRank === 0 ? 1 : 0,
      ...candidates(),
    };
    function candidates() {
      const heaviest = 1 + Math.log(1 + (stats.chunks + 0.5) / 0.5);
      const held = weighted.filter((w) => bestTerms.some((t) => sameTerm(t, w.term)));
      const lacking = weighted.filter((w) => !held.includes(w));
      const relatedHeld = (w: (typeof weighted)[number]) =>
        [...(neighbours.get(w.term) ?? [])].some(
          (u) => bestTerms.includes(u) && !weighted.some((x) => sameTerm(x.term, u)),
        );
      return {
        matchedMax: held.reduce((m, w) => Math.max(m, w.weight), 0) / heaviest,
        matchedSum: held.reduce((m, w) => m + w.weight, 0) / heaviest,
        meanWeight: total / Math.max(weighted.length, 1) / heaviest,
        related: lacking.filter(relatedHeld).reduce((m, w) => m + w.weight, 0) / total,
        gap: landed - ([...scores].sort((a, b) => b - a)[1] ?? 0),
      };
    }
  });
}

/** A combiner on the decision's scale: landed + Σ weight × (signal − centre) + shift. */
interface Combiner {
  weights: Partial<Record<Signal, number>>;
  centres: Partial<Record<Signal, number>>;
  shift: number;
}
const scoreOf = (c: Combiner, r: Row) => {
  let s = r.landed + c.shift;
  for (const [k, w] of Object.entries(c.weights) as Array<[Signal, number]>) s += w * (r[k] - c.centres[k]!);
  return s;
};

/**
 * L2-regularised logistic regression (answerable = 1) on standardised signals, by Newton's method
 * (a dozen signals, a few thousand questions: a few iterations). `focus` keeps only the questions
 * whose landed score is within it: the questions near the threshold are the ones a combiner moves.
 */
function logistic(
  rows: Row[],
  signals: readonly Signal[],
  lambda: number,
  focus?: [number, number],
): Combiner {
  const use = focus ? rows.filter((r) => r.landed >= focus[0] && r.landed <= focus[1]) : rows;
  const k = signals.length;
  const mean = signals.map((s) => use.reduce((a, r) => a + r[s], 0) / use.length);
  const sd = signals.map(
    (s, j) => Math.sqrt(use.reduce((a, r) => a + (r[s] - mean[j]!) ** 2, 0) / use.length) || 1,
  );
  const x = use.map((r) => [1, ...signals.map((s, j) => (r[s] - mean[j]!) / sd[j]!)]);
  const y = use.map((r) => (r.answerable ? 1 : 0));
  // Held-out questions weigh as much in total as answerable ones (the dumps ask twice as many of the latter).
  const positives = y.reduce<number>((a, b) => a + b, 0);
  const weightOf = (yi: number) =>
    yi ? use.length / (2 * positives) : use.length / (2 * (use.length - positives));
  let beta = new Array<number>(k + 1).fill(0);
  for (let iteration = 0; iteration < 25; iteration++) {
    const gradient = new Array<number>(k + 1).fill(0);
    const hessian = Array.from({ length: k + 1 }, () => new Array<number>(k + 1).fill(0));
    for (let i = 0; i < x.length; i++) {
      const xi = x[i]!;
      const z = xi.reduce((a, v, j) => a + v * beta[j]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      const w = weightOf(y[i]!);
      for (let a = 0; a <= k; a++) {
        gradient[a]! += w * (p - y[i]!) * xi[a]!;
        for (let b = 0; b <= k; b++) hessian[a]![b]! += w * p * (1 - p) * xi[a]! * xi[b]!;
      }
    }
    for (let a = 1; a <= k; a++) {
      gradient[a]! += lambda * beta[a]!;
      hessian[a]![a]! += lambda;
    }
    const step = solve(hessian, gradient);
    beta = beta.map((b, j) => b - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  // On the decision's scale: divide by landed's coefficient (landed is always the first signal).
  const perUnit = signals.map((_, j) => beta[j + 1]! / sd[j]!);
  const landedCoefficient = perUnit[0]!;
  const weights: Partial<Record<Signal, number>> = {};
  const centres: Partial<Record<Signal, number>> = {};
  signals.forEach((s, j) => {
    if (j === 0) return;
    weights[s] = perUnit[j]! / landedCoefficient;
    centres[s] = mean[j]!;
  });
  return { weights, centres, shift: 0 };
}

/** Gaussian elimination with partial pivoting: A s = b. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let j = c; j <= n; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * Decision 062's rule on a fine grid: the smallest threshold declining ≥ 92 % of held-out questions
 * on every calibration draw.
 */
function ruleThreshold(draws: Row[][], f: (r: Row) => number): number {
  let t = 0;
  for (const draw of draws) {
    const heldOut = draw
      .filter((r) => !r.answerable)
      .map(f)
      .sort((a, b) => a - b);
    // Declining ≥ 92 %: the threshold must exceed the score at that rank.
    t = Math.max(t, heldOut[Math.ceil(0.92 * heldOut.length) - 1]! + 1e-6);
  }
  return t;
}

/**
 * Shifted so that the calibration rule on steps of 0.01 (study-report.ts) gives the threshold in
 * use, with half a step to spare: the held-out score the rule reads falls 0.005 below it.
 */
function anchored(draws: Row[][], f: (r: Row) => number): (r: Row) => number {
  const shift = COVERED_THRESHOLD - 0.005 - ruleThreshold(draws, f);
  return (r) => f(r) + shift;
}

/** Mean share of answerable questions declined on the calibration draws at the rule's threshold. */
function calibrationCost(draws: Row[][], f: (r: Row) => number): number {
  const t = ruleThreshold(draws, f);
  const shares = draws.map((d) => {
    const a = d.filter((r) => r.answerable);
    return a.filter((r) => f(r) < t).length / a.length;
  });
  return shares.reduce((x, y) => x + y, 0) / shares.length;
}

/**
 * Greedy stumps: up to `count` times, the signal, cut (at its deciles on calibration) and step
 * (± 0.01 … 0.1) whose `+ step × [signal ≥ cut]` lowers the calibration cost most.
 */
function stumps(draws: Row[][], count: number): Fitted {
  const rows = draws.flat();
  const chosen: Array<{ s: Signal; cut: number; step: number }> = [];
  const f = (r: Row) => chosen.reduce((v, c) => v + (r[c.s] >= c.cut ? c.step : 0), r.landed);
  for (let n = 0; n < count; n++) {
    let bestCost = calibrationCost(draws, f);
    let bestStump: (typeof chosen)[number] | undefined;
    for (const s of SIGNALS) {
      if (s === 'landed') continue;
      const sorted = rows.map((r) => r[s]).sort((a, b) => a - b);
      const cuts = [
        ...new Set([1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => sorted[Math.floor((d * sorted.length) / 10)]!)),
      ];
      for (const cut of cuts)
        for (const step of [-0.1, -0.06, -0.03, -0.01, 0.01, 0.03, 0.06, 0.1]) {
          chosen.push({ s, cut, step });
          const cost = calibrationCost(draws, f);
          chosen.pop();
          if (cost < bestCost - 1e-9) {
            bestCost = cost;
            bestStump = { s, cut, step };
          }
        }
    }
    if (!bestStump) break;
    chosen.push(bestStump);
  }
  const text = chosen
    .map((c) => `${c.step > 0 ? '+' : '−'} ${Math.abs(c.step)} when ${c.s} ≥ ${c.cut.toFixed(3)}`)
    .join(', ');
  return { f, text: `landed ${text || '(none)'}` };
}

/** A score fitted on calibration draws, and how to write it. */
interface Fitted {
  f: (r: Row) => number;
  text: string;
  /** Already on the scale of the threshold in use (else the report shifts it there). */
  scaled?: boolean;
  /** The constant of a scaled combiner (its value with every signal 0, uncapped). */
  constant?: number;
}

function fittedLogistic(signals: readonly Signal[], lambda: number, focus?: [number, number]) {
  return (draws: Row[][]): Fitted => {
    const c = logistic(draws.flat(), signals, lambda, focus);
    const terms = Object.entries(c.weights).map(
      ([s, w]) =>
        `${w >= 0 ? '+' : '−'} ${Math.abs(w).toFixed(4)} × (${s} − ${c.centres[s as Signal]!.toFixed(4)})`,
    );
    return { f: (r) => scoreOf(c, r), text: `landed ${terms.join(' ')}` };
  };
}

/** The share of answerable questions declined where `heldOut` of the held-out ones are. */
function answerableAt(rows: Row[], f: (r: Row) => number, heldOut: number): number {
  const scores = rows
    .filter((r) => !r.answerable)
    .map(f)
    .sort((a, b) => a - b);
  const t = scores[Math.ceil(heldOut * scores.length) - 1]! + 1e-9;
  const answerable = rows.filter((r) => r.answerable);
  return answerable.filter((r) => f(r) < t).length / answerable.length;
}

/**
 * Leave one calibration draw out: fitted on the other three, read on it where 92 % of its held-out
 * questions are declined; the mean of the four. Chooses among variants without the evaluation half.
 */
function crossValidated(draws: Row[][], train: (draws: Row[][]) => Fitted): number {
  const shares = draws.map((d, i) => answerableAt(d, train(draws.filter((_, j) => j !== i)).f, 0.92));
  return shares.reduce((a, b) => a + b, 0) / shares.length;
}

const read = (file: string) => rowsOf(JSON.parse(fs.readFileSync(file, 'utf8')) as Dump);
const calibration = (argValue('--calibration') ?? '').split(',').filter(Boolean).map(read);
const evaluation = read(argValue('--evaluation') ?? '');
const benchFile = argValue('--bench');
const bench = benchFile ? read(benchFile) : undefined;
const only = argValue('--only');
for (const [name, rows] of [
  ['evaluation', evaluation],
  ...calibration.map((d, i) => [`calibration ${i}`, d] as const),
] as const)
  for (const s of SIGNALS)
    if (rows.some((r) => !Number.isFinite(r[s]))) console.log(`${name}: ${s} is not a number somewhere`);

/** Decision 093's signals: what backward elimination keeps at λ 100 (`--backward`). */
const KEPT: Signal[] = [
  'landed',
  'absentShare',
  'agreement20',
  'margin',
  'bestFirst',
  'phrase',
  'sentence',
  'untyped',
];
const SUBSETS: Array<[string, Signal[]]> = [
  ['every signal', [...SIGNALS]],
  ['landed, absent share, agreement over 20, margin', ['landed', 'absentShare', 'agreement20', 'margin']],
  [
    'landed, whole, absent share, missing max, terms',
    ['landed', 'whole', 'absentShare', 'missingMax', 'terms'],
  ],
  ['landed, margin, titles over 20, document over 20', ['landed', 'margin', 'titles20', 'document20']],
  ['landed, absent share, margin, titles over 20', ['landed', 'absentShare', 'margin', 'titles20']],
  [
    'landed, absent share, margin, titles over 20, terms',
    ['landed', 'absentShare', 'margin', 'titles20', 'terms'],
  ],
  ['landed, margin', ['landed', 'margin']],
  ['landed, titles over 20', ['landed', 'titles20']],
  ['landed, absent share', ['landed', 'absentShare']],
  ['landed, phrase, sentence, untyped', ['landed', 'phrase', 'sentence', 'untyped']],
  [
    'landed, absent share, agreement over 20, margin, phrase, sentence',
    ['landed', 'absentShare', 'agreement20', 'margin', 'phrase', 'sentence'],
  ],
  [
    'landed, absent share, agreement over 20, margin, first, phrase, sentence',
    ['landed', 'absentShare', 'agreement20', 'margin', 'bestFirst', 'phrase', 'sentence'],
  ],
  // What backward elimination keeps at λ 100 (`--backward`): decision 093's combiner.
  ['landed, absent share, agreement over 20, margin, first, phrase, sentence, untyped', KEPT],
  ...(['matchedMax', 'matchedSum', 'meanWeight', 'related', 'gap'] as const).map((s): [string, Signal[]] => [
    `decision 093's signals and ${s} (101)`,
    [...KEPT, s],
  ]),
  [
    "decision 093's signals and all five of 101",
    [...KEPT, 'matchedMax', 'matchedSum', 'meanWeight', 'related', 'gap'],
  ],
  ['landed, phrase', ['landed', 'phrase']],
  ['landed, untyped', ['landed', 'untyped']],
];
const fits: Array<readonly [string, (draws: Row[][]) => Fitted]> = [
  ['before (089 as landed)', () => ({ f: (r) => r.landed, text: 'landed', scaled: true })],
  ...SUBSETS.flatMap(([name, signals]) =>
    [1, 100].flatMap((lambda) =>
      [undefined, [0.45, 0.75] as [number, number]].map(
        (focus) =>
          [
            `logistic: ${name}, λ ${lambda}${focus ? `, fitted on landed ${focus[0]}–${focus[1]}` : ''}`,
            fittedLogistic(signals, lambda, focus),
          ] as const,
      ),
    ),
  ),
  // The kept combiner, which may not raise the score of a question with a word no chunk holds.
  ...[0, 0.1, 0.2, 0.3].map(
    (least) =>
      [
        `decision 093: the kept combiner, at most landed when words absent weigh > ${least}`,
        (draws: Row[][]): Fitted => {
          const kept = fittedLogistic(KEPT, 100)(draws);
          // Capped, then shifted (the cap left where it is) until the rule gives the threshold in
          // use: by bisection, the rule's threshold grows with the shift.
          const capped = (shift: number) => (r: Row) =>
            r.absentShare > least ? Math.min(kept.f(r) + shift, r.landed) : kept.f(r) + shift;
          let [low, high] = [-1, 1];
          for (let i = 0; i < 40; i++) {
            const mid = (low + high) / 2;
            if (ruleThreshold(draws, capped(mid)) < COVERED_THRESHOLD - 0.005) low = mid;
            else high = mid;
          }
          const f = capped(low);
          const zero = Object.fromEntries(SIGNALS.map((s) => [s, 0])) as Record<Signal, number>;
          return {
            f,
            constant: kept.f({ ...zero, answerable: true, retrieved: true }) + low,
            text: `${kept.text}, at most landed when words absent weigh > ${least}`,
            scaled: true,
          };
        },
      ] as const,
  ),
  ...[1, 2, 3].map((count) => [`stumps × ${count}`, (draws: Row[][]) => stumps(draws, count)] as const),
];

/**
 * Forward selection on the calibration half alone: from landed, add the signal whose logistic
 * combiner (λ, focus) lowers the cross-validated share most, while it does by 0.05 points or more.
 */
function forward(lambda: number, focus: [number, number] | undefined): Signal[] {
  const chosen: Signal[] = ['landed'];
  let cost = crossValidated(calibration, fittedLogistic(chosen, lambda, focus));
  for (;;) {
    let best: { s: Signal; cost: number } | undefined;
    for (const s of SIGNALS) {
      if (chosen.includes(s)) continue;
      const c = crossValidated(calibration, fittedLogistic([...chosen, s], lambda, focus));
      if (!best || c < best.cost) best = { s, cost: c };
    }
    if (!best || best.cost > cost - 0.0005) break;
    chosen.push(best.s);
    cost = best.cost;
    console.log(
      `forward (λ ${lambda}${focus ? ', focused' : ''}): + ${best.s} → ${(100 * cost).toFixed(2)} %`,
    );
  }
  return chosen;
}
/**
 * Backward elimination on the calibration half alone: from every signal, drop the one whose loss
 * raises the cross-validated share least, while that keeps it within 0.05 points of the best seen.
 */
function backward(lambda: number, focus: [number, number] | undefined): Signal[] {
  let chosen: Signal[] = [...SIGNALS];
  let bestCost = crossValidated(calibration, fittedLogistic(chosen, lambda, focus));
  for (;;) {
    let next: { s: Signal; cost: number } | undefined;
    for (const s of chosen.slice(1)) {
      const c = crossValidated(
        calibration,
        fittedLogistic(
          chosen.filter((x) => x !== s),
          lambda,
          focus,
        ),
      );
      if (!next || c < next.cost) next = { s, cost: c };
    }
    if (!next || next.cost > bestCost + 0.0005) break;
    chosen = chosen.filter((x) => x !== next.s);
    bestCost = Math.min(bestCost, next.cost);
    console.log(
      `backward (λ ${lambda}${focus ? ', focused' : ''}): − ${next.s} → ${(100 * next.cost).toFixed(2)} %`,
    );
  }
  return chosen;
}
if (process.argv.includes('--backward'))
  for (const lambda of [1, 100])
    for (const focus of [undefined, [0.45, 0.75] as [number, number]]) {
      const signals = backward(lambda, focus);
      fits.push([
        `logistic, backward elimination: ${signals.slice(1).join(', ')}, λ ${lambda}${focus ? ', fitted on landed 0.45–0.75' : ''}`,
        fittedLogistic(signals, lambda, focus),
      ]);
    }
if (process.argv.includes('--forward'))
  for (const lambda of [1, 10])
    for (const focus of [undefined, [0.45, 0.75] as [number, number]]) {
      const signals = forward(lambda, focus);
      fits.push([
        `logistic, forward selection: ${signals.slice(1).join(', ')}, λ ${lambda}${focus ? ', fitted on landed 0.45–0.75' : ''}`,
        fittedLogistic(signals, lambda, focus),
      ]);
    }

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const variants: Array<readonly [string, (r: Row) => number]> = [];
const described: string[] = [];
console.log(
  'variant | cross-validated calibration: answerable declined @92 | evaluation: answerable declined @90, @92',
);
for (const [name, train] of fits) {
  if (only && !name.includes(only)) continue;
  const all = train(calibration);
  // The product's score is unshifted; a fitted one is put where the rule gives the threshold in use.
  const f = all.scaled ? all.f : anchored(calibration, all.f);
  variants.push([name, f]);
  // Linear in the signals: its value with every signal 0 is the constant the product adds.
  const zero = Object.fromEntries(SIGNALS.map((s) => [s, 0])) as Record<Signal, number>;
  described.push(
    `${name}: ${all.text}; on the scale of the threshold in use, with every signal 0: ${(all.constant ?? f({ ...zero, answerable: true, retrieved: true })).toFixed(4)}`,
  );
  console.log(
    [
      name,
      pct(crossValidated(calibration, train)),
      `${pct(answerableAt(evaluation, f, 0.9))}, ${pct(answerableAt(evaluation, f, 0.92))}`,
    ].join(' | '),
  );
}
console.log('');
printVariants(variants, calibration, evaluation, bench);
// Per variant, the evaluation dump's answerable questions declined at the threshold in use, and how
// many of them do not have their paragraph among the six quoted passages (no decision takes those back).
for (const [name, f] of variants) {
  const declined = evaluation.filter((r) => r.answerable && f(r) < COVERED_THRESHOLD);
  console.log(
    `${name} | evaluation at ${COVERED_THRESHOLD}: ${declined.length} of ${evaluation.filter((r) => r.answerable).length} answerable declined, ${declined.filter((r) => !r.retrieved).length} of them without their paragraph among the six`,
  );
}
if (process.argv.includes('--weights')) for (const line of described) console.log(line);
