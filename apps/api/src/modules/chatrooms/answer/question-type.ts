/** What kind of answer a question asks for, from its opening words (en, de, fr, es). */
export type QuestionType = 'date' | 'number' | 'person' | 'place' | 'other';

const PATTERNS: Array<[QuestionType, RegExp]> = [
  [
    'number',
    /\b(?:how (?:many|much|long|far|old|big|large|tall|high)|what (?:percentage|percent|number|amount)|wie (?:viele?|lange|alt)|combien|cu[aá]nt[oa]s?)\b/i,
  ],
  [
    'date',
    /\b(?:when|what (?:year|date|century|decade|time)|in (?:what|which) (?:year|century|decade)|wann|in welchem jahr|quand|en quelle ann[ée]e|cu[aá]ndo|en qu[eé] a[nñ]o)\b/i,
  ],
  ['person', /\b(?:who|whom|whose|wer|wem|wen|qui|qui[eé]n(?:es)?)\b/i],
  ['place', /\b(?:where|wo|woher|wohin|o[uù]|d[oó]nde)\b/i],
];

export function questionTypeOf(question: string): QuestionType {
  for (const [type, pattern] of PATTERNS) if (pattern.test(question)) return type;
  return 'other';
}

const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre';
const DATE = new RegExp(
  `\\b(?:1\\d{3}|20\\d{2}|\\d{1,4}0s|(?:${MONTHS}) \\d{1,2}|\\d{1,2}(?:st|nd|rd|th)? (?:${MONTHS})|\\d{1,2}(?:st|nd|rd|th) century)\\b`,
  'iu',
);
const NUMBER =
  /\b\d[\d,.]*\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen)\b/i;
/** A capitalised word that does not start the sentence: a name, a place, an organisation. */
const PROPER_NOUN = /(?<=[^.!?]\s)\p{Lu}[\p{L}'’-]+/gu;

/**
 * Whether a sentence holds the kind of thing the question asks for and that the question does not
 * already say (`asked` are the question's words, lower-cased): a date for "when", a number for
 * "how many", a name for "who" or "where".
 */
export function hasAnswerOfType(type: QuestionType, sentence: string, asked: ReadonlySet<string>): boolean {
  const fresh = (match: string) => !asked.has(match.toLowerCase());
  switch (type) {
    case 'date':
      return [...sentence.matchAll(new RegExp(DATE, 'giu'))].some((m) => fresh(m[0]));
    case 'number':
      return [...sentence.matchAll(new RegExp(NUMBER, 'gi'))].some((m) => fresh(m[0]));
    case 'person':
    case 'place':
      return [...sentence.matchAll(PROPER_NOUN)].some((m) => fresh(m[0]));
    default:
      return false;
  }
}
