import { minimatch } from 'minimatch';
import robotsParser from 'robots-parser';
import { FetchError, fetchUrl } from './fetch-url.ts';
import { politely } from './polite-fetch.ts';

/** The name robots.txt rules are matched against. */
export const ROBOTS_AGENT = 'CairnBot';

export interface SiteOptions {
  max_pages: number;
  include: string[];
  exclude: string[];
  sitemap: boolean;
}

export interface FetchPolicy {
  allowLoopback: boolean;
  userAgent: string;
}

/** Which addresses belong to a site import: its origin, its path globs, and its robots.txt. */
export interface SiteRules {
  allows(url: string): boolean;
}

/**
 * The rules of a site import rooted at `rootUrl`: same origin (scheme, host and port) only, the
 * path matching an `include` glob (when there are any) and no `exclude` glob, and allowed to
 * CairnBot by the site's robots.txt (missing or unreadable: everything is allowed, as crawlers do).
 */
export async function siteRules(
  rootUrl: string,
  options: SiteOptions,
  fetch: FetchPolicy,
): Promise<SiteRules> {
  const origin = new URL(rootUrl).origin;
  const robots = await readRobots(origin, fetch);
  const glob = (pattern: string) => (path: string) => minimatch(path, pattern, { dot: true });
  const include = options.include.map(glob);
  const exclude = options.exclude.map(glob);
  return {
    allows(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      if (parsed.origin !== origin) return false;
      const path = decodeURIComponentSafe(parsed.pathname);
      if (include.length && !include.some((match) => match(path))) return false;
      if (exclude.some((match) => match(path))) return false;
      return robots?.isAllowed(parsed.toString(), ROBOTS_AGENT) !== false;
    },
  };
}

const ROBOTS_MAX_BYTES = 512 * 1024;
/** robots.txt is read again after this long: a crawl asks for it once per page. */
const ROBOTS_TTL_MS = 5 * 60_000;
const robotsCache = new Map<string, { at: number; robots: Promise<Robots | undefined> }>();
type Robots = ReturnType<typeof robotsParser>;

function readRobots(origin: string, fetch: FetchPolicy): Promise<Robots | undefined> {
  const cached = robotsCache.get(origin);
  if (cached && Date.now() - cached.at < ROBOTS_TTL_MS) return cached.robots;
  const robots = fetchRobots(origin, fetch);
  robotsCache.set(origin, { at: Date.now(), robots });
  robots.catch(() => robotsCache.delete(origin));
  return robots;
}

async function fetchRobots(origin: string, fetch: FetchPolicy): Promise<Robots | undefined> {
  const url = `${origin}/robots.txt`;
  try {
    const page = await politely(url, () =>
      fetchUrl(url, { ...fetch, maxBytes: ROBOTS_MAX_BYTES, timeoutMs: 10_000, accept: () => true }),
    );
    return robotsParser(url, page.body.toString('utf8'));
  } catch (error) {
    if (error instanceof FetchError) return undefined;
    throw error;
  }
}

function decodeURIComponentSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
