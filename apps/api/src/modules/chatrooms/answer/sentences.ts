/** The passage's text without markdown heading lines (the heading is shown apart). */
export function bodyOf(content: string): string {
  return content.replace(/^#{1,6}\s+.*$/gm, '').trim() || content.replace(/^#{1,6}\s+/gm, '');
}

/** Unicode sentence boundaries: a dot inside `window.__x`, `127.0.0.1` or `v1.2.3` ends nothing. */
const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });
/**
 * Abbreviations that rarely end a sentence but that the segmenter (without ICU's suppression
 * lists, which V8 does not expose) ends one at when a capital follows: "Dr. Smith", "e.g. Python".
 */
const ABBREVIATION_END = /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|fig|vs|cf|e\.g|i\.e|st|jr|sr)\.$/i;

/** The sentences of a passage's body, in order. */
export function sentencesOf(content: string): string[] {
  const sentences: string[] = [];
  // A blank line ends a sentence (a caption or a list without a full stop); other line breaks are wrapping.
  for (const paragraph of bodyOf(content).split(/\n\s*\n/)) {
    let sentence = '';
    for (const { segment } of SENTENCES.segment(paragraph.replace(/\s+/g, ' ').trim())) {
      sentence += segment;
      if (ABBREVIATION_END.test(sentence.trimEnd())) continue;
      sentences.push(sentence.trim());
      sentence = '';
    }
    sentences.push(sentence.trim());
  }
  return sentences.filter(Boolean);
}

const SENTENCE_MAX = 400;

/** An overlong sentence, shortened at a word. */
export function shorten(sentence: string): string {
  if (sentence.length <= SENTENCE_MAX) return sentence;
  const cut = sentence.slice(0, SENTENCE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > SENTENCE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
