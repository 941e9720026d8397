import { RELEVANCE_THRESHOLD } from '@cairn/contracts/knowledge-search';
import type { TermStatistics } from '../../../rag/term-statistics.ts';
import type { Passage } from '../../../rag/types.ts';
import { sentencesOf } from './sentences.ts';
import { termsOf } from './terms.ts';

/**
 * The share of the question's weight (IDF) a passage must match to count as covering it,
 * calibrated on half of the SQuAD development articles and checked on the other half (decisions
 * 053, 062): below it the knowledge is judged not to cover the question. The contracts hold it as
 * 0–100, the scale the knowledge page's search shows (decision 071).
 */
export const COVERED_THRESHOLD = RELEVANCE_THRESHOLD / 100;
/**
 * With an embedding model, a passage whose vector is at least this similar to the question's
 * needs only this share of the threshold lexically: vectors catch paraphrases that share few words.
 */
export const VECTOR_SIMILAR = 0.6;
const VECTOR_RELIEF = 0.75;
/**
 * Where the retrieved passages come from, as evidence beside the words they match: when the
 * knowledge covers a question, retrieval tends to find several passages of the document about it;
 * for a question it does not cover, the passages that share some of its words scatter over
 * unrelated documents. A passage's coverage gains `TITLE_AGREEMENT_WEIGHT` × (its title agreement −
 * `TITLE_AGREEMENT_CENTRE`), scaled by how informative agreement is (1 − its title's share of the
 * knowledge): a passage alone of its title loses a little, one joined by most others gains. Both
 * calibrated with the threshold on half of the SQuAD articles, so that the threshold stays where it
 * was (decision 075).
 */
export const TITLE_AGREEMENT_WEIGHT = 0.2;
export const TITLE_AGREEMENT_CENTRE = 0.4;

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

/** The question's content terms: stop words (ours and those of the languages in use) and its frame left out. */
function questionTerms(question: string, stats: TermStatistics | null): string[] {
  const stopped = new Set<string>();
  for (const word of stats?.stopWords ?? []) for (const term of termsOf(word)) stopped.add(term);
  return [...new Set(termsOf(question.replace(QUESTION_FRAME, ' ')))].filter((t) => !stopped.has(t));
}

/**
 * Which of the question's terms (by index) a passage term names, remembered for the decision: the
 * six passages share most of their words, and `sameTerm` then runs once per distinct word.
 */
function termMatcher(question: readonly string[]): (term: string) => readonly number[] {
  const known = new Map<string, number[]>();
  return (term) => {
    let hits = known.get(term);
    if (!hits) {
      hits = [];
      for (let i = 0; i < question.length; i++) if (sameTerm(term, question[i]!)) hits.push(i);
      known.set(term, hits);
    }
    return hits;
  };
}

/** The indices of the question's terms that `terms` name. */
function matchedBy(terms: readonly string[], matches: (term: string) => readonly number[]): Set<number> {
  const found = new Set<number>();
  for (const term of terms) for (const i of matches(term)) found.add(i);
  return found;
}

/**
 * Each term weighted by its inverse document frequency in the knowledge (BM25's IDF plus a floor).
 * The retrieved passages are part of the knowledge: they count even when the statistics miss them.
 */
function weigh(
  terms: readonly string[],
  matchedPerPassage: readonly Set<number>[],
  stats: TermStatistics | null,
): WeightedTerm[] {
  const df = new Map<string, number>();
  for (const [word, count] of stats?.df ?? []) {
    for (const term of termsOf(word)) df.set(term, Math.max(df.get(term) ?? 0, count));
  }
  const n = Math.max(stats?.chunks ?? 0, matchedPerPassage.length, 1);
  return terms.map((term, i) => {
    const inPassages = matchedPerPassage.filter((found) => found.has(i)).length;
    const count = Math.min(Math.max(df.get(term) ?? 0, inPassages), n);
    return { term, weight: WEIGHT_FLOOR + Math.log(1 + (n - count + 0.5) / (count + 0.5)) };
  });
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
 * The share of the question's weight held within a passage's best two consecutive sentences, with
 * its title and heading (`frame`), which every sentence sits under: proximity.
 */
function nearCoverage(
  content: string,
  frame: ReadonlySet<number>,
  share: (found: ReadonlySet<number>) => number,
  matches: (term: string) => readonly number[],
): number {
  const sentences = sentencesOf(content).map((s) => matchedBy(termsOf(s), matches));
  let near = 0;
  for (let i = 0; i < Math.max(sentences.length, 1); i++) {
    near = Math.max(near, share(new Set([...frame, ...(sentences[i] ?? []), ...(sentences[i + 1] ?? [])])));
  }
  return near;
}

/**
 * Per passage, what its title agreement adds to its coverage (may be negative). Agreement is the
 * share of the other passages under the same item title, beyond the share of the knowledge's chunks
 * that title holds (what chance would give). Nothing, either way, without evidence: statistics
 * without titles, a single passage, or a knowledge that is one document.
 */
function titleEvidence(passages: readonly Passage[], stats: TermStatistics | null): number[] {
  const titles = stats?.titleChunks;
  if (!titles || passages.length < 2) return passages.map(() => 0);
  const counts = new Map<string, number>();
  for (const p of passages) counts.set(p.item_title, (counts.get(p.item_title) ?? 0) + 1);
  return passages.map((p) => {
    const chance = Math.min((titles.get(p.item_title) ?? 0) / Math.max(stats.chunks, 1), 1);
    if (chance >= 1) return 0;
    const others = (counts.get(p.item_title)! - 1) / (passages.length - 1);
    const agreement = Math.max(0, (others - chance) / (1 - chance));
    return TITLE_AGREEMENT_WEIGHT * (agreement - TITLE_AGREEMENT_CENTRE) * (1 - chance);
  });
}

export interface RelevanceDecision {
  covered: boolean;
  /** The best passage's coverage (0–1), stored with the answer. */
  score: number;
  /** The passages that pass, best first (retrieval order breaks ties). */
  passages: Passage[];
  /** The question's weighted terms, for choosing the sentences that answer. */
  weighted: WeightedTerm[];
  /**
   * Chunk id → the passage's coverage (0–1): for every passage when asked (`every`), else only
   * for those that could pass or be the best (the others are never read sentence by sentence).
   */
  coverage: Map<number, number>;
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
  { every = false }: { every?: boolean } = {},
): RelevanceDecision {
  const terms = questionTerms(question, stats);
  const coverage = new Map<number, number>();
  if (!terms.length) return { covered: false, score: 0, passages: [], weighted: [], coverage };
  const matches = termMatcher(terms);
  // Each passage is read once: what its title and heading match, and what the whole of it matches.
  const read = passages.map((p, rank) => {
    const frame = matchedBy(termsOf(`${p.item_title}\n${p.heading ?? ''}`), matches);
    const whole = new Set([...frame, ...matchedBy(termsOf(p.content), matches)]);
    return { p, rank, frame, whole };
  });
  const weighted = weigh(
    terms,
    read.map((r) => r.whole),
    stats,
  );
  const total = weighted.reduce((sum, q) => sum + q.weight, 0);
  // Summed in the question's order, so that equal matches give equal scores (ties go to retrieval order).
  const share = (found: ReadonlySet<number>) => {
    let sum = 0;
    for (let i = 0; i < weighted.length; i++) if (found.has(i)) sum += weighted[i]!.weight;
    return sum / total;
  };
  const evidence = titleEvidence(passages, stats);
  // A passage's score, the mean of its whole and near coverage plus its title evidence, is at most
  // its whole coverage plus that evidence: the sentences (the costly part) are read only for a
  // passage that could pass or be the best.
  const ranked = read
    .map((r) => {
      const bonus = evidence[r.rank]!;
      const cosine = similarity?.get(r.p.chunk_id);
      const needed =
        cosine !== undefined && cosine >= VECTOR_SIMILAR
          ? COVERED_THRESHOLD * VECTOR_RELIEF
          : COVERED_THRESHOLD;
      return { ...r, whole: share(r.whole), bonus, needed };
    })
    .sort((a, b) => b.whole + b.bonus - (a.whole + a.bonus) || a.rank - b.rank);
  let best = 0;
  const passing: Array<{ p: Passage; rank: number; coverage: number }> = [];
  for (const r of ranked) {
    const bound = Math.min(r.whole + r.bonus, 1);
    if (!every && bound < r.needed && bound <= best) continue;
    const near = nearCoverage(r.p.content, r.frame, share, matches);
    const covered = Math.min(Math.max((r.whole + near) / 2 + r.bonus, 0), 1);
    coverage.set(r.p.chunk_id, covered);
    best = Math.max(best, covered);
    if (covered >= r.needed) passing.push({ p: r.p, rank: r.rank, coverage: covered });
  }
  passing.sort((a, b) => b.coverage - a.coverage || a.rank - b.rank);
  return {
    covered: passing.length > 0,
    score: Math.round(best * 1000) / 1000,
    passages: passing.map((s) => s.p),
    weighted,
    coverage,
  };
}
