/** Crude, language-agnostic term matching for the built-in answerer (no network, no model). */
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our please should so tell than that the their them then there these they this those to ' +
    'us was we were what when where which who whom why will with would you your about any some also just ' +
    'le la les des un une et est du de en que qui der die das und ist ein eine el los las y es'
  ).split(' '),
);

/** Lower-cased words of 2+ letters minus stopwords, with plural/verb endings trimmed. */
export function termsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => w.length >= 2 && !STOPWORDS.has(w)).map(stem);
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** How many distinct query terms the text contains. */
export function overlap(queryTerms: Set<string>, text: string): number {
  const seen = new Set<string>();
  for (const term of termsOf(text)) if (queryTerms.has(term)) seen.add(term);
  return seen.size;
}
