import { stripControlCharacters } from '@cairn/contracts/text';

/**
 * Bytes of a text file → string. UTF-8 (with or without BOM) and UTF-16 with a BOM are read as
 * such; anything that is not valid UTF-8 is read as Windows-1252, the usual legacy encoding.
 */
export function decodeText(data: Buffer): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

/**
 * Normalises line ends and trims trailing spaces, so offsets are stable whatever the source.
 * Control characters go (the free-text rule of contracts/text.ts): NUL cannot be stored in
 * PostgreSQL, and a stray one in a file or web page must not fail its ingestion. Page and
 * vertical-tab breaks become line ends first, so the words on either side stay apart.
 */
export function normalizeText(text: string): string {
  return stripControlCharacters(text.replace(/[\f\v]/g, '\n'))
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Markdown emphasis and code markers around text (`**bold**`, `_em_`, `` `code` ``), not the
 * characters themselves: `Gateway_certificate_chain` and `2 * 3` keep theirs. A marker counts only
 * where it cannot be inside a word.
 */
const WRAPPING_MARKERS = /(?<![\w*`])(\*{1,3}|_{1,3}|`+)(\S(?:.*?\S)?)\1(?![\w*`])/g;

/** The first meaningful line, shortened: the default title of untitled text. */
export function firstLineTitle(text: string, max = 80): string | undefined {
  const line = text
    .split('\n')
    .map((l) =>
      l
        .replace(/^#+\s*/, '')
        .replace(WRAPPING_MARKERS, '$2')
        .trim(),
    )
    .find((l) => l.length > 0);
  if (!line) return undefined;
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The next line of a paragraph: a word broken at a hyphen is mended, other lines meet at a space. */
export function joinLines(paragraph: string, next: string): string {
  if (paragraph.endsWith('\u00ad')) return paragraph.slice(0, -1) + next;
  if (/\p{L}-$/u.test(paragraph) && /^\p{Ll}/u.test(next)) return paragraph + next;
  return `${paragraph} ${next}`;
}
