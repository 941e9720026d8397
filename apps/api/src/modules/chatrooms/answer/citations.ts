import type { TSource } from '@cairn/contracts/chat';
import type { Passage } from '../../../rag/types.ts';

const SNIPPET_MAX = 600;

/** The `[n]` numbers an answer cites (also `[1, 2]` and `[1][3]`), within 1..count, ascending. */
export function citedNumbers(text: string, count: number): number[] {
  const found = new Set<number>();
  for (const match of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const part of match[1]!.split(',')) {
      const n = Number(part.trim());
      if (n >= 1 && n <= count) found.add(n);
    }
  }
  return [...found].sort((a, b) => a - b);
}

export function snippetOf(content: string): string {
  const text = (content.replace(/^#{1,6}\s+.*$/gm, '').trim() || content).replace(/\s+/g, ' ').trim();
  if (text.length <= SNIPPET_MAX) return text;
  const cut = text.slice(0, SNIPPET_MAX);
  const space = cut.lastIndexOf(' ');
  return `${space > SNIPPET_MAX / 2 ? cut.slice(0, space) : cut}…`;
}

/** Only the passages the answer cites, each with the number it is cited by. */
export function citedSources(text: string, passages: Passage[]): TSource[] {
  return citedNumbers(text, passages.length).map((n) => {
    const p = passages[n - 1]!;
    return {
      index: n,
      item_uuid: p.item_uuid,
      item_title: p.item_title,
      chunk_id: p.chunk_id,
      page: p.page,
      heading: p.heading,
      snippet: snippetOf(p.content),
    };
  });
}
