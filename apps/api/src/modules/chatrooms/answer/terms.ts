import { stemmer } from 'stemmer';
import { irregularBase } from './lexicon.ts';

/**
 * Lower case without diacritics: a question typed without accents ("Gospic", "cafe", "uber") names
 * the same word as the knowledge's "Gospić", "café", "über".
 */
function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** Crude, language-agnostic term matching for the built-in answerer (no network, no model). */
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our please should so tell than that the their them then there these they this those to ' +
    'us was we were what when where which who whom whose why will with would you your about any some also just ' +
    'le la les des un une et est du de en que qui der die das und ist ein eine el los las y es ' +
    // Words that frame a question rather than name its subject ("what kind of", "in which year"):
    // an answer rarely repeats them, so they must not count against a passage.
    'kind type sort name named called call year date century decade percentage percent number amount ' +
    'happen happened occur occurred mean meant example else besides another other known refer referred many much ' +
    // Conversational filler around the subject ("tell me everything about …", "do I need to …").
    'tell show give explain describe know want need like get let more again really very now please ' +
    'everything anything something thing things exactly briefly quickly slowly detail details info ' +
    'erzähl erkläre bitte alles etwas mehr dis explique tout plus dime explica todo algo más'
  )
    .split(' ')
    .map((w) => fold(w)),
);

const WORD = /[\p{L}\p{N}]+/gu;
/** Words remembered at most: bounded memos, since the same words come back with every passage. */
const MEMO_SIZE = 50_000;

/** The words `termsOf` keeps, before stemming: lower-cased, without diacritics, stop words left out. */
export function contentWords(text: string): string[] {
  const words = fold(text).match(WORD) ?? [];
  return words.filter((w) => w.length >= 2 && !STOPWORDS.has(w));
}

/** Per word `termsOf` met: its stem, or null when it is left out (a stop word, a single letter). */
const termOfWord = new Map<string, string | null>();

/** Lower-cased words of 2+ letters minus stopwords, stemmed (Porter, harmless on other languages' words). */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  // One lookup per word: the same words come back with every passage and every sentence of it.
  for (const word of fold(text).match(WORD) ?? []) {
    let term = termOfWord.get(word);
    if (term === undefined) {
      term = word.length >= 2 && !STOPWORDS.has(word) ? stem(word) : null;
      if (termOfWord.size > MEMO_SIZE) termOfWord.clear();
      termOfWord.set(word, term);
    }
    if (term !== null) terms.push(term);
  }
  return terms;
}

/**
 * For studies (bench/answer-quality): whether irregular English forms are taken to their base word
 * before stemming. Always on in the product.
 */
export const stemming = { irregular: true };

const stemmed = new Map<string, string>();
/**
 * A word's stem: irregular English forms first to their base word ("burnt" → "burn", "fled" →
 * "flee", "children" → "child"), which Porter does not join to the regular forms; then Porter.
 */
export function stem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  let s = stemmed.get(word);
  if (s === undefined) {
    s = stemmer((stemming.irregular && irregularBase(word)) || word);
    if (stemmed.size > MEMO_SIZE) stemmed.clear();
    stemmed.set(word, s);
  }
  return s;
}

/** Forget the stems computed so far (a study that switches `stemming.irregular`). */
export function forgetStems(): void {
  stemmed.clear();
  termOfWord.clear();
}

/** How many distinct query terms the text contains. */
export function overlap(queryTerms: Set<string>, text: string): number {
  const seen = new Set<string>();
  for (const term of termsOf(text)) if (queryTerms.has(term)) seen.add(term);
  return seen.size;
}
