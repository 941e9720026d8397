/**
 * PostgreSQL text-search configurations that exist on both engines we run on (PostgreSQL 15 and
 * PGlite's 17, which adds `estonian`). A chunk stores the index of its configuration (smallint),
 * so this list is append-only: never reorder or remove an entry.
 */
export const TEXT_SEARCH_CONFIGS = [
  'simple',
  'english',
  'arabic',
  'armenian',
  'basque',
  'catalan',
  'danish',
  'dutch',
  'finnish',
  'french',
  'german',
  'greek',
  'hindi',
  'hungarian',
  'indonesian',
  'irish',
  'italian',
  'lithuanian',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'serbian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
  'yiddish',
] as const;
export type TextSearchConfig = (typeof TEXT_SEARCH_CONFIGS)[number];

/** ISO 639-1 → the configuration that stems that language. */
const CONFIG_BY_LANGUAGE: Record<string, TextSearchConfig> = {
  en: 'english',
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** The index into TEXT_SEARCH_CONFIGS for a language; `simple` (0) when unknown or unsupported. */
export function textSearchConfigFor(language: string | undefined): number {
  const config = language ? CONFIG_BY_LANGUAGE[language] : undefined;
  return config ? TEXT_SEARCH_CONFIGS.indexOf(config) : 0;
}

/** Enough text for the detector to be sure; more only costs time. */
const SAMPLE_CHARS = 1000;
/** Below this many letters tinyld guesses (a one-line claim can come out as Dutch). */
const MIN_LETTERS = 40;
/**
 * The best guess must be this many times likelier than the runner-up. On SciFact's English
 * abstracts (gene names, Greek letters, units) tinyld's top pick is wrong for ~4%; half of those
 * are near-ties, while 95% of right answers clear this ratio. An unsure item gets `simple`,
 * which loses stemming but never stems with the wrong language's rules.
 */
const MIN_MARGIN = 2;
/** Only languages we can stem: anything else would be indexed with `simple` anyway. */
const CANDIDATES = Object.keys(CONFIG_BY_LANGUAGE);

/**
 * Words that are frequent in English prose and are not words of the other candidate languages,
 * or rare ones ("in", "is", "to", "a", "an", "on", "was", "for", "we", "also" are left out: Dutch,
 * German, Danish, Serbian or the Romance languages use them).
 */
const ENGLISH_MARKERS = new Set(
  'the of and that with this these which from were are have has had been by not or its it their they there than between but be can would who what when our more such both into however during'.split(
    ' ',
  ),
);
/**
 * A sample at least this share of whose words are ENGLISH_MARKERS is English, without asking
 * tinyld (~1.6 ms of CPU per sample, most of the JavaScript an abstract cost to ingest, on the
 * thread where PGlite runs: decision 044). 95 % of SciFact's abstracts: 15–35 %; French, German,
 * Dutch, Spanish, Danish, Swedish, Italian and Portuguese prose: 0–5 %; a German paragraph quoting
 * an English title ~12 % (left to tinyld). Finding the words costs ~0.1 ms.
 */
const ENGLISH_SHARE = 0.15;

/** Whether a sample is plainly English prose (see ENGLISH_SHARE). */
function plainlyEnglish(words: string[]): boolean {
  let markers = 0;
  for (const word of words) if (ENGLISH_MARKERS.has(word.toLowerCase())) markers++;
  return markers >= ENGLISH_SHARE * words.length;
}

/**
 * tinyld (~47 MB resident, ~90 ms to load) is needed only while indexing: a server that has not
 * indexed since it started does not hold it. Imported once (an `import()` per item is not free
 * under a module loader).
 */
let tinyld: Promise<typeof import('tinyld')> | undefined;
const loadTinyld = () => {
  tinyld ??= import('tinyld');
  return tinyld;
};

/**
 * The ISO 639-1 code of a document's language, or undefined when the text is too short or the
 * detector is unsure. Used for whole items, not for queries: short queries are misdetected too
 * often, so retrieval tokenizes a query in every configuration the application uses instead.
 */
export async function detectLanguage(text: string): Promise<string | undefined> {
  const sample = text.slice(0, SAMPLE_CHARS);
  const words = sample.match(/\p{L}+/gu) ?? [];
  if (words.reduce((letters, word) => letters + word.length, 0) < MIN_LETTERS) return undefined;
  if (plainlyEnglish(words)) return 'en';
  const { detectAll } = await loadTinyld();
  const [best, second] = detectAll(sample, { only: CANDIDATES });
  if (!best?.lang) return undefined;
  if (second && best.accuracy < MIN_MARGIN * second.accuracy) return undefined;
  return best.lang;
}
