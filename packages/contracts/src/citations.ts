/**
 * How an answer's `[n]` citations are found, the same in the web app and the widget: `[1]`,
 * `[1, 2]` and `[1][2]` outside code spans and fences become markdown links to `#cite-n`, which
 * each renderer turns into a button that opens source `n`.
 */
export const CITE_HREF_PREFIX = '#cite-';

export function linkCitations(text: string): string {
  return text
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/g)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(/\[(\d+(?:\s*,\s*\d+)*)\](?!\()/g, (_, list: string) =>
            list
              .split(',')
              .map((n) => `[${n.trim()}](${CITE_HREF_PREFIX}${n.trim()})`)
              .join(''),
          ),
    )
    .join('');
}

/** A source's heading path without the item title it starts with (the title is shown beside it). */
export function headingOf(source: { heading: string | null; item_title: string }): string | null {
  const rest = (source.heading ?? '')
    .split(' › ')
    .filter((part) => part && part !== source.item_title)
    .join(' › ');
  return rest || null;
}
