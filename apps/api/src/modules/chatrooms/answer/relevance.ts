import { RELEVANCE_THRESHOLD } from '@cairn/contracts/knowledge-search';
import type { TermStatistics } from '../../../rag/term-statistics.ts';
import type { Passage } from '../../../rag/types.ts';
import { relatedWords } from './lexicon.ts';
import { languageOf } from './no-answer.ts';
import { hasAnswerOfType, questionTypeOf } from './question-type.ts';
import { sentencesOf } from './sentences.ts';
import { contentWords, stem, termsOf } from './terms.ts';

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
/**
 * The same agreement read again over the retrieval's wider ranking (`RANKED_K` passages, of which
 * the first six are quoted): twenty ranks say more than six whether retrieval keeps returning one
 * document. Calibrated on half of the SQuAD articles (decision 089).
 */
export const RANKING_AGREEMENT_WEIGHT = 0.05;
export const RANKING_AGREEMENT_CENTRE = 0.4;
const AGREEMENT_WEIGHTS: AgreementWeights = {
  weight: TITLE_AGREEMENT_WEIGHT,
  centre: TITLE_AGREEMENT_CENTRE,
  rankingWeight: RANKING_AGREEMENT_WEIGHT,
  rankingCentre: RANKING_AGREEMENT_CENTRE,
};

/**
 * Decision 093: the best passage's score (decisions 053–089) is combined with seven signals of the
 * question and its passages by weights a logistic regression fitted (answerable against held-out
 * questions) on the calibration half of the SQuAD articles (`bench/answer-quality/study-combiner.ts`,
 * chosen by backward elimination on that half alone, λ 100), divided by the best score's own weight
 * so that they read in the score's units, and shifted (`constant`) so that decision 062's rule still
 * gives the threshold in use. The question's score is the best passage's plus
 * Σ weight × signal + constant, never more than the best passage's when a question word is absent
 * from the knowledge (`judgeRelevance` says which passages it moves).
 */
export interface Combiner {
  /** × the share of the question's weight on words no chunk and no passage holds. */
  absent: number;
  /** × the best passage's title agreement over the wider ranking (089's, beyond chance). */
  rankingAgreement: number;
  /** × the best score beyond the best of a passage under another title. */
  margin: number;
  /** When the best passage is the ranking's first. */
  first: number;
  /** × the share of the question's consecutive words found together in the best passage. */
  phrase: number;
  /** × the best single sentence's share of the question's weight. */
  sentence: number;
  /** When the question asks for a date, number or name and no sentence of the best passage holds one. */
  untyped: number;
  constant: number;
}
export const COMBINER: Combiner = {
  absent: -0.8764,
  rankingAgreement: 0.5642,
  margin: 0.6461,
  first: 0.1708,
  phrase: 0.5004,
  sentence: 0.6518,
  untyped: -0.1459,
  constant: -0.774,
};
/** No combination: the best passage's score alone (decision 089), for the studies. */
export const NO_COMBINER: Combiner = {
  absent: 0,
  rankingAgreement: 0,
  margin: 0,
  first: 0,
  phrase: 0,
  sentence: 0,
  untyped: 0,
  constant: 0,
};
/** Question words found within this many words of the previous one count as found together. */
const PHRASE_WINDOW = 3;

/**
 * In an English question, a question word the passage lacks counts this share of its weight when
 * the passage holds a word WordNet relates to it in the word's first sense (a synonym or a
 * derivationally related form: "famous" met by "renowned", "translation" by "translated").
 * Calibrated on half of the SQuAD articles with the threshold left where it was (decision 086).
 */
export const RELATED_CREDIT = 0.3;
/** Which question words related words may relieve: every one, those the knowledge holds, those it lacks. */
export type RelatedScope = 'every' | 'known' | 'absent';
/**
 * Related words relieve only question words the knowledge holds somewhere: a word in no chunk is
 * the strongest evidence that a question is about something else (decisions 075, 081), and keeps it.
 */
export const RELATED_SCOPE: RelatedScope = 'known';

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
function questionTerms(question: string, stats: TermStatistics | null): { terms: string[]; words: string[] } {
  const stopped = new Set<string>();
  for (const word of stats?.stopWords ?? []) for (const term of termsOf(word)) stopped.add(term);
  const words = contentWords(question.replace(QUESTION_FRAME, ' ')).filter((w) => !stopped.has(stem(w)));
  return { terms: [...new Set(words.map(stem))], words };
}

/**
 * Per question term, the stems of the words WordNet relates to it (none outside English, or when
 * `credit` is 0), leaving out any that names a question term itself.
 */
function relatedTerms(
  question: string,
  terms: readonly string[],
  words: readonly string[],
  credit: number,
  relieved: (term: string) => boolean,
) {
  const related = terms.map(() => new Set<string>());
  if (credit <= 0 || languageOf(question) !== 'en') return related;
  for (const word of words) {
    if (!/^[a-z]+$/.test(word)) continue;
    const i = terms.indexOf(stem(word));
    if (!relieved(terms[i]!)) continue;
    for (const other of relatedWords(word)) {
      const term = stem(other);
      if (!terms.some((t) => sameTerm(t, term))) related[i]!.add(term);
    }
  }
  return related;
}

/** Question term index → how much of it is found (1, or `RELATED_CREDIT` through a related word). */
type Found = Map<number, number>;

/**
 * Which of the question's terms (by index) a passage term names, and how much, remembered for the
 * decision: the six passages share most of their words, and `sameTerm` then runs once per distinct word.
 */
function termMatcher(
  question: readonly string[],
  related: readonly ReadonlySet<string>[],
  credit: number,
): (term: string) => ReadonlyArray<readonly [number, number]> {
  const known = new Map<string, Array<[number, number]>>();
  return (term) => {
    let hits = known.get(term);
    if (!hits) {
      hits = [];
      for (let i = 0; i < question.length; i++) {
        if (sameTerm(term, question[i]!)) hits.push([i, 1]);
        else if (related[i]!.has(term)) hits.push([i, credit]);
      }
      known.set(term, hits);
    }
    return hits;
  };
}

/** The question's terms that `terms` name, each with the most found of it. */
function matchedBy(
  terms: readonly string[],
  matches: (term: string) => ReadonlyArray<readonly [number, number]>,
  into: Found = new Map(),
): Found {
  for (const term of terms)
    for (const [i, found] of matches(term)) if (found > (into.get(i) ?? 0)) into.set(i, found);
  return into;
}

/** Both found sets together, each term at the most found of it. */
function merged(...sets: ReadonlyArray<ReadonlyMap<number, number> | undefined>): Found {
  const into: Found = new Map();
  for (const set of sets)
    for (const [i, found] of set ?? []) if (found > (into.get(i) ?? 0)) into.set(i, found);
  return into;
}

/**
 * Each term weighted by its inverse document frequency in the knowledge (BM25's IDF plus a floor).
 * The retrieved passages are part of the knowledge: they count even when the statistics miss them.
 */
/** Per term, how many chunks of the knowledge hold it (from the statistics' words). */
function termFrequencies(stats: TermStatistics | null): Map<string, number> {
  const df = new Map<string, number>();
  for (const [word, count] of stats?.df ?? []) {
    for (const term of termsOf(word)) df.set(term, Math.max(df.get(term) ?? 0, count));
  }
  return df;
}

function weigh(
  terms: readonly string[],
  matchedPerPassage: readonly ReadonlyMap<number, number>[],
  stats: TermStatistics | null,
  df: ReadonlyMap<string, number>,
): WeightedTerm[] {
  const n = Math.max(stats?.chunks ?? 0, matchedPerPassage.length, 1);
  return terms.map((term, i) => {
    const inPassages = matchedPerPassage.filter((found) => found.get(i) === 1).length;
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
  frame: ReadonlyMap<number, number>,
  share: (found: ReadonlyMap<number, number>) => number,
  matches: (term: string) => ReadonlyArray<readonly [number, number]>,
): number {
  const sentences = sentencesOf(content).map((s) => matchedBy(termsOf(s), matches));
  let near = 0;
  for (let i = 0; i < Math.max(sentences.length, 1); i++) {
    near = Math.max(near, share(merged(frame, sentences[i], sentences[i + 1])));
  }
  return near;
}

/**
 * A passage's agreement within `among`: the share of the others under its item title, beyond the
 * share of the knowledge's chunks that title holds (`chance`, what retrieval would give at random).
 */
function agreementWithin(
  among: readonly Passage[],
  counts: ReadonlyMap<string, number>,
  title: string,
  chance: number,
) {
  const others = ((counts.get(title) ?? 1) - 1) / (among.length - 1);
  return Math.max(0, (others - chance) / (1 - chance));
}

function titleCounts(passages: readonly Passage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of passages) counts.set(p.item_title, (counts.get(p.item_title) ?? 0) + 1);
  return counts;
}

/** How title agreement is weighed: among the quoted passages (075) and among the wider ranking (089). */
export interface AgreementWeights {
  weight: number;
  centre: number;
  rankingWeight: number;
  rankingCentre: number;
}

/**
 * Per passage, what its title agreement adds to its coverage (may be negative): agreement among the
 * quoted passages (decision 075), and among the wider ranking `ranked` when it is longer (decision
 * 089), each scaled by how informative agreement is (1 − chance). Nothing, either way, without
 * evidence: statistics without titles, a single passage, or a knowledge that is one document.
 */
function titleEvidence(
  passages: readonly Passage[],
  stats: TermStatistics | null,
  ranked: readonly Passage[],
  { weight, centre, rankingWeight, rankingCentre }: AgreementWeights,
): Array<{ evidence: number; ranking: number }> {
  const titles = stats?.titleChunks;
  if (!titles || passages.length < 2) return passages.map(() => ({ evidence: 0, ranking: 0 }));
  const quoted = titleCounts(passages);
  const wide = ranked.length > passages.length ? titleCounts(ranked) : undefined;
  return passages.map((p) => {
    const chance = Math.min((titles.get(p.item_title) ?? 0) / Math.max(stats.chunks, 1), 1);
    if (chance >= 1) return { evidence: 0, ranking: 0 };
    let evidence = weight * (agreementWithin(passages, quoted, p.item_title, chance) - centre);
    // Over the wider ranking when there is one, else over the quoted passages (what the combiner reads).
    const ranking = wide
      ? agreementWithin(ranked, wide, p.item_title, chance)
      : agreementWithin(passages, quoted, p.item_title, chance);
    if (wide) evidence += rankingWeight * (ranking - rankingCentre);
    return { evidence: evidence * (1 - chance), ranking };
  });
}

/** The share of the question's consecutive terms (`sequence`) found within `PHRASE_WINDOW` words of each other in `content`. */
function phraseShare(sequence: readonly string[], content: string): number {
  if (sequence.length < 2) return 0;
  const terms = termsOf(content);
  let together = 0;
  for (let k = 1; k < sequence.length; k++) {
    const [a, b] = [sequence[k - 1]!, sequence[k]!];
    const found = terms.some(
      (t, i) => sameTerm(t, a) && terms.slice(i + 1, i + 1 + PHRASE_WINDOW).some((u) => sameTerm(u, b)),
    );
    if (found) together++;
  }
  return together / (sequence.length - 1);
}

/**
 * Decision 093's signals of the best passage beyond its score, weighed by `combiner`: what the
 * question's score gains or loses (negative: loses).
 */
function combined(
  question: string,
  weighted: readonly WeightedTerm[],
  best: { p: Passage; rank: number; covered: number; ranking: number },
  background: number,
  absentShare: number,
  combiner: Combiner,
): number {
  const sentences = sentencesOf(best.p.content);
  const sequence = termsOf(question).filter((t) => weighted.some((w) => w.term === t));
  const type = questionTypeOf(question);
  const asked = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const typed = sentences.some(
    (s) => hasAnswerOfType(type, s, asked) && weightedCoverage(weighted, termsOf(s)) > 0,
  );
  return (
    combiner.absent * absentShare +
    combiner.rankingAgreement * best.ranking +
    combiner.margin * (best.covered - background) +
    (best.rank === 0 ? combiner.first : 0) +
    combiner.phrase * phraseShare(sequence, best.p.content) +
    combiner.sentence * Math.max(0, ...sentences.map((s) => weightedCoverage(weighted, termsOf(s)))) +
    (type !== 'other' && !typed ? combiner.untyped : 0) +
    combiner.constant
  );
}

export interface RelevanceDecision {
  covered: boolean;
  /** The question's score (0–1): the best passage's coverage and decision 093's signals, stored with the answer. */
  score: number;
  /** The passages that pass, best first (retrieval order breaks ties). */
  passages: Passage[];
  /** The question's weighted terms, for choosing the sentences that answer. */
  weighted: WeightedTerm[];
  /** Chunk id → the passage's score (0–1): its coverage with decision 093's signals (see `judgeRelevance`). */
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
  {
    relatedCredit = RELATED_CREDIT,
    relatedScope = RELATED_SCOPE,
    ranking = passages,
    agreement = AGREEMENT_WEIGHTS,
    combiner = COMBINER,
  }: {
    /**
     * The retrieval's wider ranking, whose first passages are `passages`: only its titles are read,
     * for title agreement (decision 089).
     */
    ranking?: readonly Passage[];
    /** A study's weights instead of `AGREEMENT_WEIGHTS`. */
    agreement?: AgreementWeights;
    /** A study's combiner instead of `COMBINER` (`NO_COMBINER`: decision 089's score). */
    combiner?: Combiner;
    /** A study's credit for related words instead of `RELATED_CREDIT` (0: none). */
    relatedCredit?: number;
    /** A study's choice instead of `RELATED_SCOPE`. */
    relatedScope?: RelatedScope;
  } = {},
): RelevanceDecision {
  const { terms, words } = questionTerms(question, stats);
  const coverage = new Map<number, number>();
  if (!terms.length) return { covered: false, score: 0, passages: [], weighted: [], coverage };
  const df = termFrequencies(stats);
  const relieved = (term: string) =>
    relatedScope === 'every' || (df.get(term) ?? 0) > 0 === (relatedScope === 'known');
  const matches = termMatcher(
    terms,
    relatedTerms(question, terms, words, relatedCredit, relieved),
    relatedCredit,
  );
  // Each passage is read once: what its title and heading match, and what the whole of it matches.
  const read = passages.map((p, rank) => {
    const frame = matchedBy(termsOf(`${p.item_title}\n${p.heading ?? ''}`), matches);
    const whole = matchedBy(termsOf(p.content), matches, merged(frame));
    return { p, rank, frame, whole };
  });
  const weighted = weigh(
    terms,
    read.map((r) => r.whole),
    stats,
    df,
  );
  const total = weighted.reduce((sum, q) => sum + q.weight, 0);
  // Summed in the question's order, so that equal matches give equal scores (ties go to retrieval order).
  const share = (found: ReadonlyMap<number, number>) => {
    let sum = 0;
    for (let i = 0; i < weighted.length; i++) sum += (found.get(i) ?? 0) * weighted[i]!.weight;
    return sum / total;
  };
  // Words no chunk holds and no passage names: the strongest evidence of another subject (075, 081).
  const absentShare =
    weighted.reduce(
      (sum, w, i) =>
        (df.get(w.term) ?? 0) === 0 && !read.some((r) => r.whole.get(i) === 1) ? sum + w.weight : sum,
      0,
    ) / total;
  const evidence = titleEvidence(passages, stats, ranking, agreement);
  // Every passage is scored: the combiner reads the best passage's margin over other titles'.
  const scored = read.map((r) => {
    const near = nearCoverage(r.p.content, r.frame, share, matches);
    const covered = Math.min(Math.max((share(r.whole) + near) / 2 + evidence[r.rank]!.evidence, 0), 1);
    const cosine = similarity?.get(r.p.chunk_id);
    const vouched = cosine !== undefined && cosine >= VECTOR_SIMILAR;
    return { p: r.p, rank: r.rank, covered, vouched, ranking: evidence[r.rank]!.ranking };
  });
  // The best passage: the highest score, the earlier in the ranking on a tie.
  const best = scored.reduce<(typeof scored)[number] | undefined>(
    (a, b) => (!a || b.covered > a.covered ? b : a),
    undefined,
  );
  if (!best) return { covered: false, score: 0, passages: [], weighted, coverage };
  const background = Math.max(
    0,
    ...scored.filter((s) => s.p.item_title !== best.p.item_title).map((s) => s.covered),
  );
  // A word no chunk holds is never outweighed by the other signals: they may only lower the score
  // then ("When did the family move to Zagreb?" of a passage on their move to Gospić), as since
  // decision 075. On the SQuAD dumps it declines no more held-out questions and half a point more
  // answerable ones (misspelt names); `constant` was set with it (decision 093).
  const signals = combined(question, weighted, best, background, absentShare, combiner);
  const shift = absentShare > 0 ? Math.min(signals, 0) : signals;
  const passing: Array<{ p: Passage; rank: number; coverage: number }> = [];
  for (const s of scored) {
    // The signals are the best passage's: they raise its score alone, and lower every passage's
    // with it. A passage vectors vouch for (053) is never lowered: its words may be paraphrases,
    // which the lexical signals, fitted without an embedding model, count against it.
    const own = s === best ? shift : Math.min(shift, 0);
    const score = s.covered + (s.vouched ? Math.max(own, 0) : own);
    coverage.set(s.p.chunk_id, Math.min(Math.max(score, 0), 1));
    const needed = s.vouched ? COVERED_THRESHOLD * VECTOR_RELIEF : COVERED_THRESHOLD;
    if (score >= needed) passing.push({ p: s.p, rank: s.rank, coverage: score });
  }
  passing.sort((a, b) => b.coverage - a.coverage || a.rank - b.rank);
  return {
    covered: passing.length > 0,
    score: Math.round((coverage.get(best.p.chunk_id) ?? 0) * 1000) / 1000,
    passages: passing.map((s) => s.p),
    weighted,
    coverage,
  };
}
