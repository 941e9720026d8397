import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { ParsedDocument } from '../types.ts';
import { normalizeText } from './decode-text.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';

/** A web page → its main content (readability) as markdown, plus its title, language and links. */
export function parseHtml(source: string, baseUrl?: string): ParsedDocument & { links: string[] } {
  // linkedom makes a fragment's first element the root, outside any body: give it a document.
  const html = /<(html|body)[\s>]/i.test(source)
    ? source
    : `<!doctype html><html><body>${source}</body></html>`;
  const { document } = parseHTML(html);
  const links = baseUrl ? collectLinks(document, baseUrl) : [];
  const lang = document.documentElement?.getAttribute('lang')?.trim().slice(0, 2).toLowerCase();
  const pageTitle = document.querySelector('title')?.textContent?.trim() ?? '';
  // Readability mutates the document: links were collected first.
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: 100,
    }).parse();
  } catch {
    article = null;
  }
  let markdown = article?.content ? htmlToMarkdown(article.content) : '';
  if (!markdown.trim()) {
    // Short pages fall below readability's threshold: take the whole body instead.
    const { document: fresh } = parseHTML(html);
    markdown = htmlToMarkdown(fresh.body?.innerHTML ?? '');
  }
  const firstHeading = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  const title = (article?.title?.trim() || pageTitle || firstHeading || '').slice(0, 255);
  const text = normalizeText(markdown);
  return {
    title,
    language: lang && /^[a-z]{2}$/.test(lang) ? lang : undefined,
    sections: text ? [{ text }] : [],
    links,
  };
}

function collectLinks(document: ReturnType<typeof parseHTML>['document'], baseUrl: string): string[] {
  const out = new Set<string>();
  for (const anchor of document.querySelectorAll('a[href]')) {
    try {
      const url = new URL(anchor.getAttribute('href') ?? '', baseUrl);
      url.hash = '';
      if (url.protocol === 'http:' || url.protocol === 'https:') out.add(url.toString());
    } catch {
      // Not a URL: skip it.
    }
  }
  return [...out];
}
