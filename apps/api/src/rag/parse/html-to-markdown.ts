import TurndownService from 'turndown';

const turndown = new TurndownService({
  headingStyle: 'atx',
  bulletListMarker: '-',
  codeBlockStyle: 'fenced',
  emDelimiter: '_',
});
// Scripts, styles and embedded media carry no readable text.
turndown.remove(['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'svg', 'canvas', 'template']);
// Images become their alt text (if any), never a link to fetch.
turndown.addRule('image-alt', {
  filter: 'img',
  replacement: (_content, node) => {
    const alt = (node as { getAttribute?: (name: string) => string | null }).getAttribute?.('alt');
    return alt ? alt : '';
  },
});

/** HTML → markdown that keeps headings (`#`) and lists (`-`, `1.`). */
export function htmlToMarkdown(html: string): string {
  // Turndown pads list markers to a tab stop (`-   item`); one space is what people write.
  return turndown.turndown(html).replace(/^(\s*)([-*]|\d+\.) {2,}/gm, '$1$2 ');
}
