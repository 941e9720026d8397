import { FetchError, fetchUrl } from './fetch-url.ts';
import { politely } from './polite-fetch.ts';
import type { FetchPolicy, SiteRules } from './site-rules.ts';

/** Caps: a sitemap's size, the addresses read from one, and the child sitemaps an index may name. */
export const SITEMAP_LIMITS = { maxBytes: 10 * 1024 * 1024, urlsPerSitemap: 50_000, childSitemaps: 50 };

const XML_TYPES = /^(application|text)\/(xml|[a-z.+-]*\+xml)$|^text\/plain$/;

/**
 * The page addresses a sitemap lists (a sitemap index's sitemaps are read too, one level deep),
 * in order, without duplicates, keeping those the rules allow (same site, filters, robots.txt),
 * at most `max`. Child sitemaps and pages off the site are ignored.
 */
export async function readSitemap(
  url: string,
  rules: SiteRules,
  max: number,
  fetch: FetchPolicy,
): Promise<string[]> {
  const root = await fetchSitemap(url, fetch);
  const pages = new Set<string>();
  const add = (locs: string[]) => {
    for (const loc of locs) {
      if (pages.size >= max) return;
      const page = normalized(loc);
      if (page && rules.allows(page)) pages.add(page);
    }
  };
  add(root.pages);
  const origin = new URL(url).origin;
  const children = root.sitemaps
    .map(normalized)
    .filter((child): child is string => child !== undefined && new URL(child).origin === origin)
    .slice(0, SITEMAP_LIMITS.childSitemaps);
  for (const child of children) {
    if (pages.size >= max) break;
    try {
      add((await fetchSitemap(child, fetch)).pages);
    } catch (error) {
      // One broken child sitemap does not lose the others.
      if (!(error instanceof FetchError)) throw error;
    }
  }
  return [...pages];
}

/**
 * A sitemap is read by scanning for its root element and its `<loc>` elements, not by an XML parser:
 * fast-xml-parser took 4.4 s of the event loop for 50,000 entries, this takes milliseconds. No DTD is
 * read and no entity expanded ("billion laughs" cannot happen); the five XML escapes and CDATA are
 * undone by hand. Prefixed elements (`<image:loc>`) are other vocabularies and are not pages.
 */
async function fetchSitemap(
  url: string,
  fetch: FetchPolicy,
): Promise<{ pages: string[]; sitemaps: string[] }> {
  const page = await politely(url, () =>
    fetchUrl(url, { ...fetch, maxBytes: SITEMAP_LIMITS.maxBytes, accept: (type) => XML_TYPES.test(type) }),
  );
  const xml = page.body.toString('utf8');
  const root = /<(urlset|sitemapindex)[\s>]/.exec(xml)?.[1];
  if (!root) throw new FetchError('not_a_page', 'Not a sitemap: no <urlset> or <sitemapindex> in it.');
  const locs: string[] = [];
  for (const match of xml.matchAll(/<loc>\s*(?:<!\[CDATA\[([^\]]*)\]\]>|([^<]*))\s*<\/loc>/g)) {
    if (locs.length >= SITEMAP_LIMITS.urlsPerSitemap) break;
    locs.push(match[1] ?? unescapeXml(match[2] ?? ''));
  }
  return root === 'urlset' ? { pages: locs, sitemaps: [] } : { pages: [], sitemaps: locs };
}

const XML_ESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (text: string) =>
  text.trim().replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ESCAPES[name]!);

function normalized(loc: string): string | undefined {
  try {
    const url = new URL(loc);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.toString();
  } catch {
    return undefined;
  }
}
