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

/**
 * A question word that no chunk of the knowledge holds is either about another subject or misspelt
 * ("Zeria" for the passage's "Zeira", "captian", "Home Gaurd"). Such a word is matched by a passage
 * word one slip away — a letter added, dropped or changed, or two neighbours swapped — when the
 * shorter of the two stems has at least this many letters. Words the knowledge holds keep
 * `sameTerm`'s stricter rule: a known word one letter from another is more often another word.
 * Chosen on the calibration half of the SQuAD articles (4 letters also took held-out questions;
 * decision 101).
 */
export const ABSENT_SLIP_LENGTH = 5;

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

/**
 * Question term index → how much of it is found (1, or `RELATED_CREDIT` through a related word; 0:
 * not found). An array the length of the question's terms: the decision builds one per sentence.
 */
type Found = Float64Array;

/** A question term (by index) a word names: how much of it is found, and whether by the word itself (`sameTerm`). */
type Hit = readonly [index: number, found: number, exact: boolean];
/** A word's hits, remembered per question. */
export type Matcher = (term: string) => readonly Hit[];

/**
 * Which of the question's terms (by index) a passage term names, and how much, remembered for the
 * decision: the six passages share most of their words, and `sameTerm` then runs once per distinct
 * word. Without `related` words, only a word naming a question term itself counts; a question term
 * marked in `loose` (absent from the knowledge) is also named by a word one slip from it.
 */
export function termMatcher(
  question: readonly string[],
  related: readonly ReadonlySet<string>[] = [],
  credit = 0,
  loose: { terms: readonly boolean[]; length: number } = { terms: [], length: 0 },
): Matcher {
  const known = new Map<string, Hit[]>();
  return (term) => {
    let hits = known.get(term);
    if (!hits) {
      hits = [];
      for (let i = 0; i < question.length; i++) {
        const q = question[i]!;
        if (sameTerm(term, q) || (loose.terms[i] && oneSlip(term, q, loose.length))) hits.push([i, 1, true]);
        else if (related[i]?.has(term)) hits.push([i, credit, false]);
      }
      known.set(term, hits);
    }
    return hits;
  };
}

/** The question's terms that `terms` name, each with the most found of it, added to `into`. */
function matchedBy(terms: readonly string[], matches: Matcher, into: Found): Found {
  for (const term of terms) for (const [i, found] of matches(term)) if (found > into[i]!) into[i] = found;
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
  matchedPerPassage: readonly Found[],
  stats: TermStatistics | null,
  df: ReadonlyMap<string, number>,
): WeightedTerm[] {
  const n = Math.max(stats?.chunks ?? 0, matchedPerPassage.length, 1);
  return terms.map((term, i) => {
    const inPassages = matchedPerPassage.filter((found) => found[i] === 1).length;
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

/**
 * Whether two stems, the shorter of at least `least` letters, are one slip apart: a letter added,
 * dropped or changed, or two neighbouring letters swapped (`zeria`/`zeira`). 0: never.
 */
export function oneSlip(a: string, b: string, least: number): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (least <= 0 || short.length < least || long.length - short.length > 1) return false;
  if (withinOneEdit(short, long)) return true;
  if (short.length !== long.length) return false;
  let i = 0;
  while (short[i] === long[i]) i++;
  return short[i] === long[i + 1] && short[i + 1] === long[i] && short.slice(i + 2) === long.slice(i + 2);
}

function withinOneEdit(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.slice(i) === b.slice(i + 1);
}

/**
 * The share of the question's weight found among `terms` (each question term once, by the word
 * itself), read through `matches`, a matcher of the question's terms (kept across calls, it
 * compares each distinct word once).
 */
export function weightedCoverage(
  question: readonly WeightedTerm[],
  terms: readonly string[],
  matches: Matcher = termMatcher(question.map((q) => q.term)),
): number {
  const total = question.reduce((sum, q) => sum + q.weight, 0);
  if (total <= 0) return 0;
  const named = new Uint8Array(question.length);
  for (const term of terms) for (const [i, , exact] of matches(term)) if (exact) named[i] = 1;
  let found = 0;
  for (let i = 0; i < question.length; i++) if (named[i]) found += question[i]!.weight;
  return found / total;
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

/**
 * The share of the question's consecutive terms (`sequence`, by index) found within `PHRASE_WINDOW`
 * words of each other among a passage's `terms`.
 */
function phraseShare(sequence: readonly number[], terms: readonly string[], matches: Matcher): number {
  if (sequence.length < 2) return 0;
  const names = (term: string, i: number) => matches(term).some(([j, , exact]) => exact && j === i);
  let together = 0;
  for (let k = 1; k < sequence.length; k++) {
    const [a, b] = [sequence[k - 1]!, sequence[k]!];
    const found = terms.some((t, i) => {
      if (!names(t, a)) return false;
      for (let j = i + 1; j <= i + PHRASE_WINDOW && j < terms.length; j++)
        if (names(terms[j]!, b)) return true;
      return false;
    });
    if (found) together++;
  }
  return together / (sequence.length - 1);
}

/** A quoted passage as the decision reads it: each of its texts split and tokenized once. */
interface Reading {
  p: Passage;
  rank: number;
  /** What its title and heading match, which every sentence sits under. */
  frame: Found;
  /** Its content's terms, in order. */
  terms: string[];
  /** What the whole of it (frame and content) matches. */
  whole: Found;
  /** The share of the question's weight the whole of it matches. */
  lexical: number;
  /** Its title agreement: what it adds to the score, and the share over the wider ranking (089). */
  evidence: number;
  ranking: number;
  vouched: boolean;
  /** Never below its score (`covered`): the score as if its best two sentences matched all its words. */
  bound: number;
  /** Its score and its sentences, read only when the decision needs them (`scoreOf`). */
  exact?: { covered: number; sentences: Array<{ text: string; terms: string[] }> };
}

/**
 * Lower-casing is context-free but for the Greek capital sigma (σ, or ς ending a word), which a
 * sentence's end may turn final where the passage's text does not: a passage holding none has no
 * sentence word its own terms lack, so its sentences match no more than the whole of it.
 */
const CONTEXTUAL_CASE = /Σ/u;

/**
 * Decision 093's signals of the best passage beyond its score, weighed by `combiner`: what the
 * question's score gains or loses (negative: loses).
 */
function combined(
  question: string,
  weighted: readonly WeightedTerm[],
  best: Reading & { covered: number; sentences: ReadonlyArray<{ text: string; terms: string[] }> },
  background: number,
  absentShare: number,
  combiner: Combiner,
  matches: Matcher,
): number {
  const index = new Map(weighted.map((w, i) => [w.term, i]));
  const sequence = termsOf(question).flatMap((t) => index.get(t) ?? []);
  const type = questionTypeOf(question);
  const asked = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const shares = best.sentences.map((s) => weightedCoverage(weighted, s.terms, matches));
  const typed = best.sentences.some((s, k) => shares[k]! > 0 && hasAnswerOfType(type, s.text, asked));
  return (
    combiner.absent * absentShare +
    combiner.rankingAgreement * best.ranking +
    combiner.margin * (best.covered - background) +
    (best.rank === 0 ? combiner.first : 0) +
    combiner.phrase * phraseShare(sequence, best.terms, matches) +
    combiner.sentence * Math.max(0, ...shares) +
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
    absentSlip = ABSENT_SLIP_LENGTH,
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
    /** A study's length instead of `ABSENT_SLIP_LENGTH` (0: absent words match only by `sameTerm`). */
    absentSlip?: number;
  } = {},
): RelevanceDecision {
  const { terms, words } = questionTerms(question, stats);
  if (!terms.length) return { covered: false, score: 0, passages: [], weighted: [], coverage: new Map() };
  const df = termFrequencies(stats);
  const relieved = (term: string) =>
    relatedScope === 'every' || (df.get(term) ?? 0) > 0 === (relatedScope === 'known');
  const matches = termMatcher(
    terms,
    relatedTerms(question, terms, words, relatedCredit, relieved),
    relatedCredit,
    { terms: terms.map((t) => (df.get(t) ?? 0) === 0), length: absentSlip },
  );
  const none = () => new Float64Array(terms.length);
  // Each passage is read once: what its title and heading match, and what the whole of it matches.
  const read = passages.map((p, rank) => {
    const frame = matchedBy(termsOf(`${p.item_title}\n${p.heading ?? ''}`), matches, none());
    const content = termsOf(p.content);
    return { p, rank, frame, terms: content, whole: matchedBy(content, matches, frame.slice()) };
  });
  const weighted = weigh(
    terms,
    read.map((r) => r.whole),
    stats,
    df,
  );
  const total = weighted.reduce((sum, q) => sum + q.weight, 0);
  // Summed in the question's order, so that equal matches give equal scores (ties go to retrieval order).
  const share = (...sets: Found[]) => {
    let sum = 0;
    for (let i = 0; i < weighted.length; i++) {
      let most = 0;
      for (const set of sets) most = Math.max(most, set[i]!);
      sum += most * weighted[i]!.weight;
    }
    return sum / total;
  };
  // Words no chunk holds and no passage names: the strongest evidence of another subject (075, 081).
  const absentShare =
    weighted.reduce(
      (sum, w, i) =>
        (df.get(w.term) ?? 0) === 0 && !read.some((r) => r.whole[i] === 1) ? sum + w.weight : sum,
      0,
    ) / total;
  const evidence = titleEvidence(passages, stats, ranking, agreement);
  const clamped = (score: number) => Math.min(Math.max(score, 0), 1);
  const readings: Reading[] = read.map((r) => {
    const lexical = share(r.whole);
    const cosine = similarity?.get(r.p.chunk_id);
    // Its best two sentences with the frame match no more than the whole of it: (lexical + near) / 2 ≤ lexical.
    const bound = CONTEXTUAL_CASE.test(r.p.content) ? 1 : clamped(lexical + evidence[r.rank]!.evidence);
    return {
      ...r,
      lexical,
      ...evidence[r.rank]!,
      vouched: cosine !== undefined && cosine >= VECTOR_SIMILAR,
      bound,
    };
  });
  /**
   * A passage's score: the share of the question's weight the whole of it matches, and the share
   * its best two consecutive sentences match with its title and heading (proximity), and its title
   * evidence. Its sentences are split and read here, once, for the passages that need it.
   */
  const scoreOf = (r: Reading) => {
    if (!r.exact) {
      const sentences = sentencesOf(r.p.content).map((text) => ({ text, terms: termsOf(text) }));
      const found = sentences.map((s) => matchedBy(s.terms, matches, none()));
      let near = 0;
      for (let i = 0; i < Math.max(found.length, 1); i++) {
        near = Math.max(near, share(r.frame, ...found.slice(i, i + 2)));
      }
      r.exact = { covered: clamped((r.lexical + near) / 2 + r.evidence), sentences };
    }
    return r.exact;
  };
  // Passages are scored exactly only where the decision needs it, highest bound first: the best
  // (the highest score, the earlier in the ranking on a tie), the best under another title (the
  // combiner's margin), and those that may pass.
  const byBound = [...readings].sort((a, b) => b.bound - a.bound || a.rank - b.rank);
  let best: (Reading & ReturnType<typeof scoreOf>) | undefined;
  for (const r of byBound) {
    if (best && (r.bound < best.covered || (r.bound === best.covered && r.rank > best.rank))) break;
    const { covered, sentences } = scoreOf(r);
    if (!best || covered > best.covered || (covered === best.covered && r.rank < best.rank))
      best = { ...r, covered, sentences };
  }
  if (!best) return { covered: false, score: 0, passages: [], weighted, coverage: new Map() };
  let background = 0;
  for (const r of byBound) {
    if (r.p.item_title === best.p.item_title) continue;
    if (r.bound <= background) break;
    background = Math.max(background, scoreOf(r).covered);
  }
  // A word no chunk holds is never outweighed by the other signals: they may only lower the score
  // then ("When did the family move to Zagreb?" of a passage on their move to Gospić), as since
  // decision 075. On the SQuAD dumps it declines no more held-out questions and half a point more
  // answerable ones (misspelt names); `constant` was set with it (decision 093).
  const signals = combined(question, weighted, best, background, absentShare, combiner, matches);
  const shift = absentShare > 0 ? Math.min(signals, 0) : signals;
  // The signals are the best passage's: they raise its score alone, and lower every passage's
  // with it. A passage vectors vouch for (053) is never lowered: its words may be paraphrases,
  // which the lexical signals, fitted without an embedding model, count against it.
  const moved = (r: Reading) => {
    const own = r.rank === best.rank ? shift : Math.min(shift, 0);
    return r.vouched ? Math.max(own, 0) : own;
  };
  const passing: Array<{ p: Passage; rank: number; coverage: number }> = [];
  for (const r of readings) {
    const needed = r.vouched ? COVERED_THRESHOLD * VECTOR_RELIEF : COVERED_THRESHOLD;
    // One whose bound falls short cannot pass: its sentences stay unread.
    if (!r.exact && r.bound + moved(r) < needed) continue;
    const score = scoreOf(r).covered + moved(r);
    if (score >= needed) passing.push({ p: r.p, rank: r.rank, coverage: score });
  }
  passing.sort((a, b) => b.coverage - a.coverage || a.rank - b.rank);
  let coverage: Map<number, number> | undefined;
  return {
    covered: passing.length > 0,
    score: Math.round(clamped(best.covered + moved(best)) * 1000) / 1000,
    passages: passing.map((s) => s.p),
    weighted,
    // Every passage's score, read by the knowledge page and the studies but not by the answer
    // path: the passages the decision left unscored are scored on the first read.
    get coverage() {
      coverage ??= new Map(readings.map((r) => [r.p.chunk_id, clamped(scoreOf(r).covered + moved(r))]));
      return coverage;
    },
  };
}
