import type { ParsedDocument } from './types.ts';

/** One passage of a document, with what a citation needs to point back at it. */
export interface Chunk {
  ordinal: number;
  content: string;
  /** 1-based page of a paged source; null otherwise. */
  page: number | null;
  /** Heading path, e.g. `Guide › Setup`; null before the first heading. */
  heading: string | null;
  /** Offsets of `content` in `documentText(document)`. */
  startOffset: number;
  endOffset: number;
}

export interface ChunkOptions {
  /** A chunk is at most this long, unless one word alone is longer. */
  maxChars: number;
  /** Trailing sentences of a chunk repeated at the start of the next, up to this many characters. */
  overlapChars: number;
}

/**
 * About 700 tokens of English: a typical abstract or section stays whole (98% of SciFact's
 * abstracts, so a document is ranked on all its words, not on a piece), and inside the input
 * window of provider embedding models (8k tokens for OpenAI's).
 */
export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxChars: 3000, overlapChars: 300 };

/** Heading path separator in `Chunk.heading`. */
export const HEADING_SEPARATOR = ' › ';

/** The text chunk offsets refer to: the sections joined by a blank line. */
export function documentText(document: ParsedDocument): string {
  return document.sections.map((section) => section.text).join('\n\n');
}

interface Span {
  start: number;
  end: number;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/**
 * Splits a parsed document into passages: never across a heading or a page (so each chunk has one
 * heading path and one page), preferably at paragraph and sentence ends, with a sentence-aligned
 * overlap between consecutive chunks of the same section.
 */
export function chunkDocument(
  document: ParsedDocument,
  options: ChunkOptions = DEFAULT_CHUNK_OPTIONS,
): Chunk[] {
  const text = documentText(document);
  const chunks: Chunk[] = [];
  const headings: string[] = [];
  const segmenter = new Intl.Segmenter(document.language ?? 'en', { granularity: 'sentence' });

  // Sentences of the current heading section within the current page.
  let units: Span[] = [];
  let page: number | null = null;
  let heading: string | null = null;

  const flush = () => {
    for (const chunk of packUnits(units, options)) {
      chunks.push({
        ordinal: chunks.length,
        content: text.slice(chunk.start, chunk.end),
        page,
        heading,
        startOffset: chunk.start,
        endOffset: chunk.end,
      });
    }
    units = [];
  };

  const addParagraph = (start: number, end: number) => {
    const paragraph = text.slice(start, end);
    for (const sentence of segmenter.segment(paragraph)) {
      const span = trimSpan(text, start + sentence.index, start + sentence.index + sentence.segment.length);
      if (span) units.push(...splitLong(text, span, options.maxChars));
    }
  };

  let offset = 0;
  for (const section of document.sections) {
    flush();
    page = section.page ?? null;
    let paragraphStart = -1;
    let inFence = false;
    let lineStart = offset;
    const sectionEnd = offset + section.text.length;
    while (lineStart <= sectionEnd) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd === -1 || lineEnd > sectionEnd) lineEnd = sectionEnd;
      const line = text.slice(lineStart, lineEnd);
      const fence = FENCE.test(line);
      const match = inFence || fence ? null : HEADING.exec(line);
      if (fence) inFence = !inFence;
      if (match?.[1] && match[2]) {
        if (paragraphStart >= 0) addParagraph(paragraphStart, lineStart);
        paragraphStart = -1;
        flush();
        const level = match[1].length;
        headings.length = Math.min(headings.length, level - 1);
        headings[level - 1] = match[2].trim();
        heading = headings.filter(Boolean).join(HEADING_SEPARATOR) || null;
        // The heading line opens its chunk, so its words are searchable with the passage.
        const span = trimSpan(text, lineStart, lineEnd);
        if (span) units.push(span);
      } else if (line.trim() === '' && !inFence) {
        if (paragraphStart >= 0) addParagraph(paragraphStart, lineStart);
        paragraphStart = -1;
      } else if (paragraphStart < 0) {
        paragraphStart = lineStart;
      }
      lineStart = lineEnd + 1;
    }
    if (paragraphStart >= 0) addParagraph(paragraphStart, sectionEnd);
    offset = sectionEnd + 2;
  }
  flush();
  return chunks;
}

/** Greedy packing of consecutive spans into chunks of at most `maxChars`, with overlap. */
function packUnits(units: Span[], options: ChunkOptions): Span[] {
  const out: Span[] = [];
  let first = 0;
  while (first < units.length) {
    let last = first;
    while (last + 1 < units.length && spanOf(units, first, last + 1) <= options.maxChars) last++;
    out.push({ start: units[first]!.start, end: units[last]!.end });
    if (last + 1 >= units.length) break;
    // Step back over trailing sentences that fit in the overlap, but always move forward.
    let next = last + 1;
    while (next - 1 > first && spanOf(units, next - 1, last) <= options.overlapChars) next--;
    first = next;
  }
  return out;
}

function spanOf(units: Span[], from: number, to: number): number {
  return units[to]!.end - units[from]!.start;
}

function trimSpan(text: string, start: number, end: number): Span | null {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  return e > s ? { start: s, end: e } : null;
}

/** A sentence longer than a chunk (a table row, a run-on list) is cut at whitespace. */
function splitLong(text: string, span: Span, maxChars: number): Span[] {
  const out: Span[] = [];
  let start = span.start;
  while (span.end - start > maxChars) {
    let cut = text.lastIndexOf(' ', start + maxChars);
    if (cut <= start) cut = start + maxChars;
    const piece = trimSpan(text, start, cut);
    if (piece) out.push(piece);
    start = cut;
  }
  const rest = trimSpan(text, start, span.end);
  if (rest) out.push(rest);
  return out;
}
