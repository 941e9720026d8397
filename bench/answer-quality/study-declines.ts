/**
 * Offline study of decision 101: causes of answerable questions being declined that the decision can
 * read from the question and its passages. Rescores the files `run.ts --dump` writes with
 * `judgeRelevance` as the product runs it (decision 093's combiner, six passages quoted, the twenty
 * read for titles), switching:
 * - misspelt words: a question word no chunk holds matched by a passage word one slip from it
 *   (`absentSlip`: 0 off, else the shorter stem's least length);
 * - more question-frame words left out (where … located, another word for, take place, be found,
 *   typically), given to the decision as stop words of the knowledge.
 * Prints decision 081's table (study-report.ts) per variant; `--flips` lists, per dump, the
 * questions whose decision differs from `absentSlip: 0` under the variant named by `--only`.
 *
 *   npx tsx bench/answer-quality/study-declines.ts --calibration s3.json,s8.json,s12.json,s16.json --evaluation s24e.json [--bench s24.json] [--only name] [--flips]
 */
import { judgeRelevance } from '../../apps/api/src/modules/chatrooms/answer/relevance.ts';
import { argValue } from '../lib.ts';
import { type Dump, printVariants, studyDumps } from './study-report.ts';

interface Variant {
  name: string;
  absentSlip: number;
  /** Words added to the knowledge's stop words. */
  frame: string[];
}
const FRAME: Array<[string, string[]]> = [
  ['located', ['located', 'location', 'situated', 'locate']],
  ['another word', ['word', 'words', 'term', 'terms', 'way', 'ways', 'referring']],
  ['take place', ['take', 'place', 'took', 'taken']],
  ['be found', ['found', 'find']],
  ['typically', ['typically', 'usually', 'generally', 'often']],
];
const VARIANTS: Variant[] = [
  { name: 'before: absent words match by sameTerm only', absentSlip: 0, frame: [] },
  ...[4, 5, 6].map((n) => ({
    name: `absent words one slip from a passage word, ≥ ${n} letters`,
    absentSlip: n,
    frame: [],
  })),
  ...FRAME.map(([name, frame]) => ({ name: `before, and frame words: ${name}`, absentSlip: 0, frame })),
  { name: 'before, and every frame word above', absentSlip: 0, frame: FRAME.flatMap(([, f]) => f) },
];

const { files, dumps } = studyDumps();

interface Scored {
  question: string;
  answerable: boolean;
  covered: boolean;
  /** The stored score, put on the right side of the threshold the decision used (it is rounded). */
  score: number;
}
function score(dump: Dump, { absentSlip, frame }: Variant): Scored[] {
  const titleChunks = new Map(Object.entries(dump.titleChunks));
  return dump.questions.map((q) => {
    const stats = {
      chunks: q.stats.chunks,
      df: new Map(Object.entries(q.stats.df)),
      stopWords: new Set([...q.stats.stopWords, ...frame]),
      titleChunks,
    };
    const d = judgeRelevance(q.question, q.passages.slice(0, 6), stats, undefined, {
      ranking: q.passages,
      absentSlip,
    });
    return {
      question: q.question,
      answerable: q.answerable,
      covered: d.covered,
      score: d.covered ? Math.max(d.score, 0.59) : Math.min(d.score, 0.5899),
    };
  });
}

const only = argValue('--only');
let header = true;
for (const variant of VARIANTS) {
  if (only && !variant.name.includes(only)) continue;
  const calibration = files.calibration.map((f) => score(dumps.get(f)!, variant));
  const evaluation = score(dumps.get(files.evaluation)!, variant);
  const bench = files.bench ? score(dumps.get(files.bench)!, variant) : undefined;
  printVariants([[variant.name, (q: Scored) => q.score]], calibration, evaluation, bench, undefined, header);
  header = false;
  if (!process.argv.includes('--flips')) continue;
  for (const [file, dump] of dumps) {
    const before = score(dump, VARIANTS[0]!);
    score(dump, variant).forEach((s, i) => {
      if (s.covered !== before[i]!.covered)
        console.log(
          `  ${file}: ${s.answerable ? 'answerable' : 'held-out'} ${before[i]!.covered ? 'covered' : 'declined'} → ${s.covered ? 'covered' : 'declined'} (${before[i]!.score.toFixed(3)} → ${s.score.toFixed(3)}) ${s.question}`,
        );
    });
  }
}
