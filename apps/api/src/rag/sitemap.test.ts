import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSitemap } from './sitemap.ts';

let server: http.Server;
let origin: string;
const files: Record<string, string> = {};
const fetch = { allowLoopback: true, userAgent: 'CairnBot/test' };
const everything = { allows: () => true };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = files[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/xml' });
    res.end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

describe('readSitemap', () => {
  it('does not expand entities (a "billion laughs" sitemap stays small and lists nothing forged)', async () => {
    const lol = Array.from({ length: 10 }, (_, i) =>
      i === 0 ? '<!ENTITY l0 "lol">' : `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`,
    ).join('');
    files['/bomb.xml'] =
      `<?xml version="1.0"?><!DOCTYPE urlset [${lol}<!ENTITY page "${origin}/forged">]>` +
      `<urlset><url><loc>&page;</loc></url><url><loc>&l9;</loc></url><url><loc>${origin}/a?x=1&amp;y=2</loc></url></urlset>`;
    const started = Date.now();
    const pages = await readSitemap(`${origin}/bomb.xml`, everything, 100, fetch);
    expect(pages).toEqual([`${origin}/a?x=1&y=2`]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses what is not a sitemap, and ignores child sitemaps of another origin', async () => {
    files['/page.xml'] = '<html><body>hello</body></html>';
    await expect(readSitemap(`${origin}/page.xml`, everything, 10, fetch)).rejects.toThrow(/Not a sitemap/);
    files['/index.xml'] =
      `<sitemapindex><sitemap><loc>http://169.254.169.254/latest/meta-data/</loc></sitemap>` +
      `<sitemap><loc>${origin}/missing.xml</loc></sitemap><sitemap><loc>${origin}/child.xml</loc></sitemap></sitemapindex>`;
    files['/child.xml'] = `<urlset><url><loc>${origin}/one</loc></url></urlset>`;
    expect(await readSitemap(`${origin}/index.xml`, everything, 10, fetch)).toEqual([`${origin}/one`]);
  });
});
