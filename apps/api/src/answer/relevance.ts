import type { TermStatistics } from '../rag/term-statistics.ts';
import type { Passage } from '../rag/types.ts';
import { sentencesOf } from './sentences.ts';
import { termsOf } from './terms.ts';

/**
 * The share of the question's weight (IDF) a passage must match to count as covering it,
 * calibrated on SQuAD development data (decision 053): below it the knowledge is judged not to
 * cover the question.
 */
export const COVERED_THRESHOLD = 0.59;
/**
 * With an embedding model, a passage whose vector is at least this similar to the question's
 * needs only this share of the threshold lexically: vectors catch paraphrases that share few words.
 */
export const VECTOR_SIMILAR = 0.6;
const VECTOR_RELIEF = 0.75;

/** Openings that say what kind of answer is wanted, not what it is about ("how long", "how often"). */
const QUESTION_FRAME = /\bhow (?:long|far|old|big|large|tall|high|often|soon)\b/giu;

/**
 * Added to every term's IDF: in a small knowledge base document frequencies say little (every word
 * is in none or one of a few chunks), so no word of the question may weigh next to nothing.
 */
const WEIGHT_FLOOR = 1;

/** A question term and how much it weighs: rare in the knowledge → heavy. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/** The question's content terms (stop words out) weighted by their inverse document frequency. */
export function weighQuestion(
  question: string,
  passages: readonly Passage[],
  stats: TermStatistics | null,
): WeightedTerm[] {
  const stopped = new Set<string>();
  const df = new Map<string, number>();
  for (const [word, count] of stats?.df ?? []) {
    for (const term of termsOf(word)) df.set(term, Math.max(df.get(term) ?? 0, count));
  }
  for (const word of stats?.stopWords ?? []) for (const term of termsOf(word)) stopped.add(term);
  const terms = [...new Set(termsOf(question.replace(QUESTION_FRAME, ' ')))].filter((t) => !stopped.has(t));
  // The retrieved passages are part of the knowledge: they count even when the statistics miss them.
  const passageTerms = passages.map((p) => new Set(termsOf(fullTextOf(p))));
  const n = Math.max(stats?.chunks ?? 0, passages.length, 1);
  return terms.map((term) => {
    const inPassages = passageTerms.filter((set) => [...set].some((t) => sameTerm(t, term))).length;
    const count = Math.min(Math.max(df.get(term) ?? 0, inPassages), n);
    return { term, weight: WEIGHT_FLOOR + Math.log(1 + (n - count + 0.5) / (count + 0.5)) };
  });
}

/** Title, heading path and body: what a passage is about includes where it sits. */
function fullTextOf(p: Passage): string {
  return `${p.item_title}\n${p.heading ?? ''}\n${p.content}`;
}

/**
 * Whether two crude stems name the same word: equal, one a longer form of the other
 * (`tradit`/`traditional`, as a misspelling stems), or a one-letter slip in a long word (`traditionall`/`traditional`).
 */
export function sameTerm(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (
    short.length >= 5 &&
    long.length - short.length <= (short.length >= 6 ? 6 : 3) &&
    long.startsWith(short)
  )
    return true;
  return short.length >= 6 && long.length - short.length <= 1 && withinOneEdit(short, long);
}

function withinOneEdit(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.slice(i) === b.slice(i + 1);
}

/** The share of the question's weight found among `terms`. */
export function weightedCoverage(question: readonly WeightedTerm[], terms: Iterable<string>): number {
  const total = question.reduce((sum, q) => sum + q.weight, 0);
  if (total <= 0) return 0;
  const present = [...new Set(terms)];
  const found = question.filter((q) => present.some((t) => sameTerm(t, q.term)));
  return found.reduce((sum, q) => sum + q.weight, 0) / total;
}

/**
 * How well one passage covers the question, 0–1: the mean of the share of the question's weight
 * the whole passage matches and the share matched within its best two consecutive sentences
 * (with the title and heading, which every sentence sits under). A passage that names every rare
 * word of the question close together scores near 1; one that shares a few common words, low.
 */
export function passageCoverage(question: readonly WeightedTerm[], p: Passage): number {
  const frame = termsOf(`${p.item_title}\n${p.heading ?? ''}`);
  const whole = weightedCoverage(question, [...frame, ...termsOf(p.content)]);
  const sentences = sentencesOf(p.content).map(termsOf);
  let near = 0;
  for (let i = 0; i < Math.max(sentences.length, 1); i++) {
    const window = [...frame, ...(sentences[i] ?? []), ...(sentences[i + 1] ?? [])];
    near = Math.max(near, weightedCoverage(question, window));
  }
  return (whole + near) / 2;
}

export interface RelevanceDecision {
  covered: boolean;
  /** The best passage's coverage (0–1), stored with the answer. */
  score: number;
  /** The passages that pass, best first (retrieval order breaks ties). */
  passages: Passage[];
  /** The question's weighted terms, for choosing the sentences that answer. */
  weighted: WeightedTerm[];
}

/**
 * Whether the retrieved passages cover the question. Computed from the question and passage text
 * and the knowledge's word statistics, never from retrieval scores, so it holds whatever ranks
 * the passages. `similarity` (chunk id → cosine with the question) is given when the application
 * has an embedding model.
 */
export function judgeRelevance(
  question: string,
  passages: readonly Passage[],
  stats: TermStatistics | null,
  similarity?: ReadonlyMap<number, number>,
): RelevanceDecision {
  const weighted = weighQuestion(question, passages, stats);
  if (!weighted.length) return { covered: false, score: 0, passages: [], weighted };
  const scored = passages.map((p, rank) => {
    const coverage = passageCoverage(weighted, p);
    const cosine = similarity?.get(p.chunk_id);
    const needed =
      cosine !== undefined && cosine >= VECTOR_SIMILAR
        ? COVERED_THRESHOLD * VECTOR_RELIEF
        : COVERED_THRESHOLD;
    return { p, rank, coverage, passes: coverage >= needed };
  });
  const best = Math.max(0, ...scored.map((s) => s.coverage));
  const passing = scored
    .filter((s) => s.passes)
    .sort((a, b) => b.coverage - a.coverage || a.rank - b.rank)
    .map((s) => s.p);
  return { covered: passing.length > 0, score: Math.round(best * 1000) / 1000, passages: passing, weighted };
}
