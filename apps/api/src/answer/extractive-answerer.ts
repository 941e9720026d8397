import type { TextGeneration } from '../models/types.ts';
import type { Passage } from '../rag/types.ts';
import { overlap, termsOf } from './terms.ts';

const MAX_PASSAGES = 3;
const SENTENCES_PER_PASSAGE = 2;
const SENTENCE_MAX = 400;

/**
 * The passages the built-in answerer may quote: those sharing at least one term with the question,
 * best first (retrieval order breaks ties). An empty list means the knowledge does not cover it.
 */
export function relevantPassages(question: string, passages: Passage[]): Passage[] {
  const query = new Set(termsOf(question));
  if (query.size === 0) return [];
  return (
    passages
      // The item title is left out: it is shared by every passage of the item and proves nothing.
      .map((p, rank) => ({ p, rank, hits: overlap(query, `${headingOf(p) ?? ''} ${bodyOf(p.content)}`) }))
      .filter((x) => x.hits > 0)
      .sort((a, b) => b.hits - a.hits || a.rank - b.rank)
      .slice(0, MAX_PASSAGES)
      .map((x) => x.p)
  );
}

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
const ABBREVIATION_END = /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|fig|vs|cf|e\.g|i\.e)\.$/i;

function sentencesOf(content: string): string[] {
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

/** An overlong sentence, shortened at a word. */
function shorten(sentence: string): string {
  if (sentence.length <= SENTENCE_MAX) return sentence;
  const cut = sentence.slice(0, SENTENCE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > SENTENCE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The sentences of a passage that best match the question, kept in their original order. */
export function bestSentences(question: string, content: string): string {
  const query = new Set(termsOf(question));
  const sentences = sentencesOf(content);
  const picked = sentences
    .map((s, i) => ({ s, i, hits: overlap(query, s) }))
    .sort((a, b) => b.hits - a.hits || a.i - b.i)
    .slice(0, SENTENCES_PER_PASSAGE)
    .sort((a, b) => a.i - b.i)
    .map(({ s }) => shorten(s));
  return picked.join(' ');
}

/** The passage's heading path without the item's own title (shown already, matched by every passage). */
export function headingOf(p: Passage): string | null {
  if (!p.heading) return null;
  const rest = p.heading
    .split(' › ')
    .filter((part) => part !== p.item_title)
    .join(' › ');
  return rest || null;
}

function locationOf(p: Passage): string {
  const heading = headingOf(p);
  const parts = [heading, p.page !== null ? `page ${p.page}` : null].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * The built-in text model: no network, no invention. It quotes the best sentences of the given
 * passages, each cited as `[n]` in the order given, and streams them as they are composed.
 */
export function extractiveAnswer(question: string, passages: Passage[]): TextGeneration {
  const parts: string[] = ['Here is what the knowledge says:\n\n'];
  passages.forEach((p, i) => {
    parts.push(`- **${p.item_title}**${locationOf(p)}: ${bestSentences(question, p.content)} [${i + 1}]\n`);
  });
  async function* stream() {
    for (const part of parts) {
      // Word-sized pieces so the answer streams like any other model's.
      yield* part.match(/\S+\s*|\s+/g) ?? [];
    }
  }
  // No model was called: the usage callers need (the public API's) is counted by a tokenizer there.
  return { textStream: stream(), usage: Promise.resolve(undefined) };
}
