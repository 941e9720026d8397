/**
 * Offline study of decision 086: word knowledge in the relevance decision. Rescores the files
 * `run.ts --dump` writes with `judgeRelevance` itself, switching its parts: irregular English forms
 * taken to their base before stemming (`stemming.irregular`), and credit for a question word the
 * passage lacks when it holds a word WordNet relates to it (`relatedCredit`, `relatedScope`,
 * `wordNetReading`: senses read, pointers followed).
 * Prints decision 081's table (study-report.ts) per variant, then, per variant, how many declined
 * answerable questions of the evaluation dump do not have their paragraph among the passages
 * (retrieval misses), and the decision's own time per question (after a warm-up pass).
 *
 *   npx tsx bench/answer-quality/study-lexicon.ts --calibration s3.json,s8.json,s12.json,s16.json --evaluation s24e.json [--bench s24.json] [--only name] [--passages 6]
 */
import { forgetRelated, wordNetReading } from '../../apps/api/src/modules/chatrooms/answer/lexicon.ts';
import {
  COVERED_THRESHOLD,
  judgeRelevance,
  NO_COMBINER,
  RELATED_CREDIT,
  RELATED_SCOPE,
} from '../../apps/api/src/modules/chatrooms/answer/relevance.ts';
import { forgetStems, stemming } from '../../apps/api/src/modules/chatrooms/answer/terms.ts';
import { argValue } from '../lib.ts';
import { type Dump, printVariants, studyDumps } from './study-report.ts';

interface Variant {
  name: string;
  irregular: boolean;
  credit: number;
  senses: number;
  knownOnly: 'every' | 'known' | 'absent';
  /** WordNet pointers followed (see `wordNetReading.pointers`). */
  pointers: string;
}
const ALL = '@ @i + & \\ =';
const VARIANTS: Variant[] = [
  {
    name: 'before (no irregular forms, no WordNet)',
    irregular: false,
    credit: 0,
    senses: 3,
    knownOnly: 'known' as const,
    pointers: ALL,
  },
  {
    name: 'as landed: irregular forms + WordNet synonyms and derived forms × 0.3, first sense, known words only',
    irregular: true,
    credit: RELATED_CREDIT,
    senses: 1,
    knownOnly: RELATED_SCOPE,
    pointers: '+',
  },
  {
    name: 'irregular forms',
    irregular: true,
    credit: 0,
    senses: 3,
    knownOnly: 'known' as const,
    pointers: ALL,
  },
  {
    name: '+ WordNet related × 0.5, 3 senses, every word',
    irregular: true,
    credit: 0.5,
    senses: 3,
    knownOnly: 'every' as const,
    pointers: ALL,
  },
  ...[1, 3].flatMap((senses) =>
    [0.3, 0.5, 0.7, 1].map((credit) => ({
      name: `+ WordNet related × ${credit}, ${senses} senses, known words only`,
      irregular: true,
      credit,
      senses,
      knownOnly: 'known' as const,
      pointers: ALL,
    })),
  ),
  ...[1, 3].flatMap((senses) =>
    [0.3, 0.5, 0.7, 1].map((credit) => ({
      name: `+ WordNet related × ${credit}, ${senses} senses, absent words only`,
      irregular: true,
      credit,
      senses,
      knownOnly: 'absent' as const,
      pointers: ALL,
    })),
  ),
  ...[1, 3].flatMap((senses) =>
    [0.2, 0.3, 0.5, 1].map((credit) => ({
      name: `+ WordNet synonyms and derived forms only × ${credit}, ${senses} senses, known words only`,
      irregular: true,
      credit,
      senses,
      knownOnly: 'known' as const,
      pointers: '+',
    })),
  ),
  ...[0.3, 0.5].map((credit) => ({
    name: `+ WordNet synonyms only × ${credit}, 3 senses, known words only`,
    irregular: true,
    credit,
    senses: 3,
    knownOnly: 'known' as const,
    pointers: '',
  })),
  {
    name: '+ WordNet synonyms and derived forms only × 0.5, 3 senses, known words only, no irregular forms',
    irregular: false,
    credit: 0.5,
    senses: 3,
    knownOnly: 'known' as const,
    pointers: '+',
  },
];

type Labelled = Dump['questions'][number] & { pid: string };
interface Scored {
  answerable: boolean;
  score: number;
  /** Whether the question's own paragraph is among its passages. */
  retrieved: boolean;
}

const { files, dumps } = studyDumps();

/** `--passages n`: the decision reads only each question's first n passages (a dump written with `--top` beyond 6). */
const kept = Number(argValue('--passages') ?? 6);

function score(dump: Dump, variant: Variant): { scored: Scored[]; ms: number } {
  const titleChunks = new Map(Object.entries(dump.titleChunks));
  const inputs = dump.questions.map((q) => ({
    q: { ...q, passages: q.passages.slice(0, kept) } as Labelled,
    stats: {
      chunks: q.stats.chunks,
      df: new Map(Object.entries(q.stats.df)),
      stopWords: new Set(q.stats.stopWords),
      titleChunks,
    },
  }));
  const judge = ({ q, stats }: (typeof inputs)[number]) =>
    judgeRelevance(q.question, q.passages, stats, undefined, {
      combiner: NO_COMBINER,
      relatedCredit: variant.credit,
      relatedScope: variant.knownOnly,
    });
  // Warm-up (lexicon loaded, stems and related words remembered), then timed as the product runs it.
  for (const input of inputs) judge(input);
  const started = performance.now();
  const scored = inputs.map((input) => {
    const decision = judge(input);
    return {
      answerable: input.q.answerable,
      score: Math.max(0, ...decision.coverage.values()),
      retrieved: input.q.passages.some((p) => (p as { paragraph?: string }).paragraph === input.q.pid),
    };
  });
  return { scored, ms: (performance.now() - started) / inputs.length };
}

const only = argValue('--only');
const notes: string[] = [];
let header = true;
for (const variant of VARIANTS) {
  if (only && !variant.name.includes(only)) continue;
  stemming.irregular = variant.irregular;
  wordNetReading.senses = variant.senses;
  wordNetReading.pointers = new Set(variant.pointers.split(' '));
  forgetStems();
  forgetRelated();
  const calibration = files.calibration.map((file) => score(dumps.get(file)!, variant).scored);
  const { scored: evaluation, ms } = score(dumps.get(files.evaluation)!, variant);
  const bench = files.bench ? score(dumps.get(files.bench)!, variant).scored : undefined;
  printVariants([[variant.name, (q: Scored) => q.score]], calibration, evaluation, bench, undefined, header);
  header = false;
  const answerable = evaluation.filter((s) => s.answerable);
  const declined = answerable.filter((s) => s.score < COVERED_THRESHOLD);
  notes.push(
    `${variant.name} | evaluation at ${COVERED_THRESHOLD}: ${declined.length} of ${answerable.length} answerable declined, ${declined.filter((s) => !s.retrieved).length} of them without their paragraph among the passages (${answerable.filter((s) => !s.retrieved).length} such misses in all) | decision ${ms.toFixed(3)} ms per question`,
  );
}
for (const note of notes) console.log(note);
