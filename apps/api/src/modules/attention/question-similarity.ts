/**
 * Lexical similarity of questions (decision 048): two questions are "the same" when the sets of
 * their meaningful words overlap enough. Deterministic, free, and it needs no embedding model (the
 * built-in default has none).
 */

/** Two questions group together at or above this token-set Jaccard similarity. */
export const SIMILAR_AT = 0.6;

// Question words and function words carry no topic: "how do I reset my password" and "how can I
// reset the password" are the same question.
const STOP_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from into about as is are was were be been being ' +
    'am do does did doing have has had having can could should would will shall may might must ' +
    'i me my mine we us our you your yours he him his she her it its they them their this that these those ' +
    'what which who whom whose when where why how there here any some all no not so than too very just ' +
    'please tell know want need get let also still yet again hi hello hey thanks thank'
  ).split(' '),
);

/** "shipp" → "ship"; "ll", "ss" and "zz" stay ("call", "pass"). */
function undouble(word: string): string {
  const last = word.at(-1)!;
  return word.length > 3 && last === word.at(-2) && !'aeioulsz'.includes(last) ? word.slice(0, -1) : word;
}

/**
 * A light English suffix folding, enough for questions to meet: "shipping", "shipped" and "ships"
 * become "ship", "prices" and "price" become "pric". Not a full stemmer: both sides are folded
 * the same way, so only consistency matters.
 */
export function fold(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed')) w = undouble(w.slice(0, -2));
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** The question's meaningful words, lowercased, accents and punctuation removed, sorted, unique. */
export function questionTokens(question: string): string[] {
  const words =
    question
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const meaningful = words.filter((w) => !STOP_WORDS.has(w));
  // A question of function words only ("who are you?") is compared by all its words.
  return [...new Set((meaningful.length ? meaningful : words).map(fold))].sort();
}

/** |A ∩ B| / |A ∪ B|; two empty sets are the same (empty) question. */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const setA = new Set(a);
  let shared = 0;
  for (const token of new Set(b)) if (setA.has(token)) shared++;
  return shared / (setA.size + new Set(b).size - shared);
}

/** The most similar candidate at or above the threshold, or undefined. */
export function mostSimilar<T extends { tokens: readonly string[] }>(
  tokens: readonly string[],
  candidates: readonly T[],
): T | undefined {
  let best: T | undefined;
  let bestScore = SIMILAR_AT;
  for (const candidate of candidates) {
    const score = jaccard(tokens, candidate.tokens);
    if (score >= bestScore && (best === undefined || score > bestScore)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
