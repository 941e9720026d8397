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

/** Normalises line ends and trims trailing spaces, so offsets are stable whatever the source. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The first meaningful line, shortened: the default title of untitled text. */
export function firstLineTitle(text: string, max = 80): string | undefined {
  const line = text
    .split('\n')
    .map((l) =>
      l
        .replace(/^#+\s*/, '')
        .replace(/[*_`]/g, '')
        .trim(),
    )
    .find((l) => l.length > 0);
  if (!line) return undefined;
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
