import { createHash } from 'node:crypto';
import http from 'node:http';
import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import type { TNotification } from '@cairn/contracts/notifications';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDueChecks } from '../../rag/refresh-items.ts';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';

let t: TestApp;
let alice: { token: string; user: { id: number } };
let site: http.Server;
let siteUrl: string;

/** The pages the local site serves now (path → body); tests change them. */
const pages = new Map<string, string>();
/** Requests per path: full answers and 304s counted apart. */
const served = new Map<string, { full: number; notModified: number }>();
/** Paths that answer 500 while listed here. */
const broken = new Set<string>();
let sitemaps: Record<string, string> = {};

const html = (title: string, text: string, links: string[] = []) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

function count(path: string, kind: 'full' | 'notModified') {
  const entry = served.get(path) ?? { full: 0, notModified: 0 };
  entry[kind]++;
  served.set(path, entry);
}

/**
 * A local web site honouring ETag (pages under /etag/) or Last-Modified (others), with a
 * robots.txt that keeps CairnBot out of /private/, and whatever sitemaps the test writes.
 */
function startSite() {
  return new Promise<http.Server>((resolve) => {
    const server = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('User-agent: CairnBot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n');
        return;
      }
      if (sitemaps[path]) {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(sitemaps[path]);
        return;
      }
      if (broken.has(path)) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('down');
        return;
      }
      const body = pages.get(path);
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('gone');
        return;
      }
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      const modified = new Date(Date.UTC(2026, 0, 1) + body.length * 1000).toUTCString();
      const validators = path.startsWith('/etag/') ? { etag } : { 'last-modified': modified };
      const fresh = path.startsWith('/etag/')
        ? req.headers['if-none-match'] === etag
        : req.headers['if-modified-since'] === modified;
      if (fresh) {
        count(path, 'notModified');
        res.writeHead(304, validators);
        res.end();
        return;
      }
      count(path, 'full');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...validators });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  site = await startSite();
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});
// Each test starts at the real time: items ingested now are due one interval from now.
beforeEach(() => {
  t.app.knowledge.deps.clock = () => new Date();
});
afterAll(async () => {
  site.close();
  await t.close();
});

async function createApp(name: string) {
  const form = new FormData();
  form.append('name', name);
  const res = await t.call('POST', '/api/applications/', { token: alice.token, form });
  expect(res.status).toBe(201);
  return res.body.uuid as string;
}

function urlForm(value: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append('items[0].type', 'url');
  form.append('items[0].value', value);
  for (const [key, v] of Object.entries(fields)) form.append(`items[0].${key}`, v);
  return form;
}

/** Adds items; the body is the items, or on a 400 the errors by field. */
const add = (appUuid: string, form: FormData) =>
  t.call<TKnowledgeItem[] & { errors?: Record<string, string[]> }>(
    'POST',
    `/api/applications/${appUuid}/knowledge/`,
    {
      token: alice.token,
      form,
    },
  );

const list = async (appUuid: string) =>
  (await t.call<TKnowledgeItem[]>('GET', `/api/applications/${appUuid}/knowledge/`, { token: alice.token }))
    .body;

/** Waits until the application has `n` items (any number when undefined), all ready or failed. */
async function settled(appUuid: string, n?: number): Promise<TKnowledgeItem[]> {
  let items: TKnowledgeItem[] = [];
  await waitFor(
    async () => {
      items = await list(appUuid);
      return (
        (n === undefined || items.length === n) &&
        items.every((i) => i.status === 'ready' || i.status === 'failed')
      );
    },
    { timeoutMs: 20_000 },
  );
  return items;
}

async function search(appUuid: string, query: string) {
  const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/search/`, {
    token: alice.token,
    json: { query },
  });
  return res.body.results as Array<{ item_uuid: string; content: string }>;
}

/** Moves the checks' clock to `hours` from now and runs the re-sync job once. */
async function runScheduleAt(hours: number) {
  const at = new Date(Date.now() + hours * 3_600_000);
  t.app.knowledge.deps.clock = () => at;
  await runDueChecks(t.app.knowledge.deps);
  await productEventsSettled(t.app);
}

const byUuid = async (appUuid: string, uuid: string) => (await list(appUuid)).find((i) => i.uuid === uuid);

describe('scheduled re-sync', () => {
  it('checks with ETag and Last-Modified: an unchanged page answers 304 and is not re-indexed', async () => {
    const appUuid = await createApp('Fresh pages');
    pages.set('/etag/hours', html('Opening hours', 'The lighthouse opens at nine.'));
    pages.set('/modified/fees', html('Fees', 'Entry costs four shillings.'));
    for (const path of ['/etag/hours', '/modified/fees']) {
      expect(
        (await add(appUuid, urlForm(`${siteUrl}${path}`, { refresh_interval_hours: '24' }))).status,
      ).toBe(201);
    }
    const before = await settled(appUuid, 2);
    for (const item of before) {
      expect(item.refresh_interval_hours).toBe(24);
      expect(item.last_checked_at).not.toBeNull();
      expect(item.last_changed_at).not.toBeNull();
      expect(new Date(item.next_check_at!).getTime() - new Date(item.last_checked_at!).getTime()).toBe(
        24 * 3_600_000,
      );
    }
    expect(served.get('/etag/hours')).toEqual({ full: 1, notModified: 0 });

    // Not due yet: nothing is fetched.
    await runScheduleAt(23);
    expect(served.get('/etag/hours')).toEqual({ full: 1, notModified: 0 });

    // Two runs at once (two processes): each item is claimed by one of them only.
    await Promise.all([runScheduleAt(25), runScheduleAt(25)]);
    expect(served.get('/etag/hours')).toEqual({ full: 1, notModified: 1 });
    expect(served.get('/modified/fees')).toEqual({ full: 1, notModified: 1 });
    const after = await settled(appUuid, 2);
    for (const item of after) {
      const was = before.find((b) => b.uuid === item.uuid)!;
      expect(item.indexed_at).toBe(was.indexed_at);
      expect(item.last_changed_at).toBe(was.last_changed_at);
      expect(new Date(item.last_checked_at!).getTime()).toBeGreaterThan(
        new Date(was.last_checked_at!).getTime(),
      );
      expect(new Date(item.next_check_at!).getTime()).toBe(
        new Date(item.last_checked_at!).getTime() + 24 * 3_600_000,
      );
    }
  });

  it('re-indexes a page that changed: the new words are found, the old ones gone', async () => {
    const appUuid = await createApp('Changing page');
    pages.set('/etag/menu', html('Menu', 'Today the kitchen serves herring.'));
    await add(appUuid, urlForm(`${siteUrl}/etag/menu`, { refresh_interval_hours: '1' }));
    const [before] = await settled(appUuid, 1);
    expect((await search(appUuid, 'herring')).length).toBe(1);

    pages.set('/etag/menu', html('Menu', 'Today the kitchen serves mackerel pie.'));
    await runScheduleAt(2);
    await waitFor(
      async () => (await byUuid(appUuid, before!.uuid))?.last_changed_at !== before!.last_changed_at,
      { timeoutMs: 20_000 },
    );
    const [after] = await settled(appUuid, 1);
    expect(after!.status).toBe('ready');
    expect((await search(appUuid, 'mackerel')).map((r) => r.item_uuid)).toEqual([before!.uuid]);
    expect(await search(appUuid, 'herring')).toEqual([]);
    // The check read it in full once; ingestion read the stored copy after a 304.
    expect(served.get('/etag/menu')).toEqual({ full: 2, notModified: 1 });
  });

  it('backs off failing checks and tells the owner once, again only after a recovery', async () => {
    const appUuid = await createApp('Flaky page');
    pages.set('/modified/flaky', html('Flaky', 'Ferries leave at noon.'));
    await add(appUuid, urlForm(`${siteUrl}/modified/flaky`, { refresh_interval_hours: '2' }));
    const [item] = await settled(appUuid, 1);
    const failing = async () =>
      (
        (await t.call('GET', '/api/notifications/', { token: alice.token })).body.results as TNotification[]
      ).filter((n) => n.event === 'knowledge_failed' && n.title.endsWith('checked for changes: Flaky'))
        .length;

    broken.add('/modified/flaky');
    await runScheduleAt(3);
    let row = await byUuid(appUuid, item!.uuid);
    // Failed once: the next check 2 h × 2¹ later; the old chunks keep answering.
    expect(new Date(row!.next_check_at!).getTime() - new Date(row!.last_checked_at!).getTime()).toBe(
      4 * 3_600_000,
    );
    expect(row!.status).toBe('ready');
    expect((await search(appUuid, 'ferries')).length).toBe(1);
    expect(await failing()).toBe(1);

    await runScheduleAt(8);
    row = await byUuid(appUuid, item!.uuid);
    expect(new Date(row!.next_check_at!).getTime() - new Date(row!.last_checked_at!).getTime()).toBe(
      8 * 3_600_000,
    );
    expect(await failing()).toBe(1);

    broken.delete('/modified/flaky');
    await runScheduleAt(17);
    row = await byUuid(appUuid, item!.uuid);
    expect(new Date(row!.next_check_at!).getTime() - new Date(row!.last_checked_at!).getTime()).toBe(
      2 * 3_600_000,
    );

    broken.add('/modified/flaky');
    await runScheduleAt(20);
    expect(await failing()).toBe(2);
    broken.delete('/modified/flaky');
  });

  it('sets and clears the interval by PATCH, refusing bad values and items that are not web pages', async () => {
    const appUuid = await createApp('Patch schedule');
    pages.set('/modified/patch', html('Patch', 'Tides turn twice a day.'));
    const [created] = (await add(appUuid, urlForm(`${siteUrl}/modified/patch`))).body;
    expect(created!.refresh_interval_hours).toBeNull();
    const patch = (json: unknown) =>
      t.call('PATCH', `/api/applications/${appUuid}/knowledge/${created!.uuid}/`, {
        token: alice.token,
        json,
      });
    const set = await patch({ refresh_interval_hours: 168 });
    expect(set.status).toBe(200);
    expect(set.body.refresh_interval_hours).toBe(168);
    expect(set.body.next_check_at).not.toBeNull();
    const cleared = await patch({ refresh_interval_hours: null });
    expect(cleared.body).toMatchObject({ refresh_interval_hours: null, next_check_at: null });
    for (const bad of [0, 721, 1.5, '24', -1]) {
      const res = await patch({ refresh_interval_hours: bad });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/refresh_interval_hours/);
    }
    const text = new FormData();
    text.append('items[0].type', 'text');
    text.append('items[0].value', 'A note');
    text.append('items[0].refresh_interval_hours', '24');
    const refused = await add(appUuid, text);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      'items[0].refresh_interval_hours': ['Only URL items take this field'],
    });
  });
});

describe('whole-site import', () => {
  it('imports a sitemap index: same site only, robots.txt respected, progress counted; re-sync follows the sitemap', async () => {
    const appUuid = await createApp('Help site');
    for (const name of ['start', 'billing', 'refunds', 'shipping']) {
      pages.set(`/help/${name}`, html(`Help ${name}`, `All about ${name} at the harbour shop.`));
    }
    pages.set('/private/secret', html('Secret', 'Internal notes.'));
    sitemaps = {
      '/sitemap.xml': `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sitemap><loc>${siteUrl}/sitemap-a.xml</loc></sitemap>
        <sitemap><loc>${siteUrl}/sitemap-b.xml</loc></sitemap>
        <sitemap><loc>http://example.com/sitemap.xml</loc></sitemap></sitemapindex>`,
      '/sitemap-a.xml': `<urlset><url><loc>${siteUrl}/help/start</loc></url><url><loc>${siteUrl}/help/billing?a=1&amp;b=2</loc></url>
        <url><loc>http://example.com/elsewhere</loc></url><url><loc>${siteUrl}/private/secret</loc></url></urlset>`,
      '/sitemap-b.xml': `<urlset><url><loc>${siteUrl}/help/refunds</loc></url><url><loc>${siteUrl}/help/shipping</loc></url></urlset>`,
    };
    const res = await add(
      appUuid,
      urlForm(`${siteUrl}/sitemap.xml`, {
        sitemap: 'true',
        refresh_interval_hours: '24',
        crawl: '{"exclude":["/help/shipping"]}',
      }),
    );
    expect(res.status).toBe(201);
    const root = res.body[0]!;
    expect(root.site).toMatchObject({
      sitemap: true,
      max_pages: 100,
      include: [],
      exclude: ['/help/shipping'],
    });

    let items = await settled(appUuid, 4);
    const pagesOf = (all: TKnowledgeItem[]) => all.filter((i) => i.site_root === root.uuid);
    expect(
      pagesOf(items)
        .map((i) => i.source)
        .sort(),
    ).toEqual([`${siteUrl}/help/billing?a=1&b=2`, `${siteUrl}/help/refunds`, `${siteUrl}/help/start`].sort());
    expect(items.find((i) => i.uuid === root.uuid)!.site).toMatchObject({
      found: 3,
      fetched: 3,
      indexed: 3,
      failed: 0,
    });
    expect((await search(appUuid, 'refunds')).length).toBeGreaterThan(0);
    expect(await search(appUuid, 'internal notes')).toEqual([]);
    // One schedule per site: its pages refuse one of their own.
    const page = pagesOf(items)[0]!;
    const refused = await t.call('PATCH', `/api/applications/${appUuid}/knowledge/${page.uuid}/`, {
      token: alice.token,
      json: { refresh_interval_hours: 1 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/follows its site's schedule/);

    // The site changes: refunds disappears from the sitemap, a new page is listed, start changes.
    sitemaps['/sitemap-b.xml'] = `<urlset><url><loc>${siteUrl}/help/returns</loc></url></urlset>`;
    pages.set('/help/returns', html('Help returns', 'Returns are taken within thirty days.'));
    pages.set('/help/start', html('Help start', 'Welcome aboard the new ferry service.'));
    await runScheduleAt(25);
    // The kept pages are due now and checked by the next runs.
    await runScheduleAt(25);
    await waitFor(async () => (await search(appUuid, 'ferry service')).length > 0, { timeoutMs: 20_000 });
    items = await settled(appUuid, 4);
    expect(
      pagesOf(items)
        .map((i) => i.source)
        .sort(),
    ).toEqual([`${siteUrl}/help/billing?a=1&b=2`, `${siteUrl}/help/returns`, `${siteUrl}/help/start`].sort());
    expect(await search(appUuid, 'refunds')).toEqual([]);

    // A page that disappears from the server goes at its next check.
    pages.delete('/help/returns');
    await runScheduleAt(50);
    await runScheduleAt(50);
    items = await settled(appUuid);
    expect(pagesOf(items).map((i) => i.source)).not.toContain(`${siteUrl}/help/returns`);

    // Deleting the root deletes its pages.
    const del = await t.call('DELETE', `/api/applications/${appUuid}/knowledge/${root.uuid}/`, {
      token: alice.token,
    });
    expect(del.status).toBe(204);
    expect(await list(appUuid)).toEqual([]);
    expect(await search(appUuid, 'ferry service')).toEqual([]);
  });

  it('caps a 10,000-page sitemap at max_pages', async () => {
    const appUuid = await createApp('Huge sitemap');
    pages.set('/big/page', html('Big', 'One of many.'));
    sitemaps['/big.xml'] =
      `<urlset>${Array.from({ length: 10_000 }, (_, i) => `<url><loc>${siteUrl}/big/${i}</loc></url>`).join('')}</urlset>`;
    const res = await add(
      appUuid,
      urlForm(`${siteUrl}/big.xml`, { sitemap: 'true', crawl: '{"max_pages": 5}' }),
    );
    expect(res.status).toBe(201);
    const items = await settled(appUuid, 6);
    expect(items.find((i) => i.uuid === res.body[0]!.uuid)!.site).toMatchObject({
      found: 5,
      indexed: 0,
      failed: 5,
    });
  });

  it('crawls a site by its links, within the include and exclude globs', async () => {
    const appUuid = await createApp('Crawled site');
    pages.set(
      '/docs/',
      html('Docs', 'Start here.', ['/docs/a', '/docs/b', '/blog/x', '/docs/drafts/c', '/private/y']),
    );
    pages.set('/docs/a', html('Doc a', 'Anchors hold fast.', ['/docs/deep']));
    pages.set('/docs/b', html('Doc b', 'Buoys mark the channel.'));
    pages.set('/docs/deep', html('Doc deep', 'Deep water charts.'));
    pages.set('/docs/drafts/c', html('Draft', 'Not ready.'));
    const res = await add(
      appUuid,
      urlForm(`${siteUrl}/docs/`, {
        crawl: JSON.stringify({ max_pages: 10, include: ['/docs/**'], exclude: ['/docs/drafts/**'] }),
      }),
    );
    expect(res.status).toBe(201);
    const items = await settled(appUuid, 4);
    expect(items.map((i) => new URL(i.source!).pathname).sort()).toEqual([
      '/docs/',
      '/docs/a',
      '/docs/b',
      '/docs/deep',
    ]);
    expect(items.find((i) => i.uuid === res.body[0]!.uuid)!.site).toMatchObject({ found: 4, indexed: 3 });
  });

  it('refuses crawl limits out of range and malformed options, naming the field', async () => {
    const appUuid = await createApp('Bad crawl');
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ crawl: '{"max_pages": 1001}' }, 'crawl', /max_pages: A whole number from 1 to 1000/],
      [{ crawl: '{"max_pages": 0}' }, 'crawl', /max_pages/],
      [{ crawl: '{"max_pages": "ten"}' }, 'crawl', /max_pages/],
      [{ crawl: 'not json' }, 'crawl', /Must be JSON/],
      [{ crawl: '[1,2]' }, 'crawl', /max_pages, include, exclude/],
      [{ crawl: '{"include": "/docs"}' }, 'crawl', /include/],
      [{ crawl: `{"include": [${Array(21).fill('"/a"').join(',')}]}` }, 'crawl', /At most 20 globs/],
      [{ crawl: '{"surprise": 1}' }, 'crawl', /./],
      [{ sitemap: 'yes' }, 'sitemap', /true or false/],
      [{ crawl: '{}', crawl_depth: '1' }, 'crawl_depth', /not crawl_depth/],
      [{ refresh_interval_hours: '721' }, 'refresh_interval_hours', /1 to 720/],
      [{ refresh_interval_hours: 'daily' }, 'refresh_interval_hours', /1 to 720/],
      [{ refresh_interval_hours: '\u0000' }, 'refresh_interval_hours', /1 to 720/],
    ];
    for (const [fields, field, message] of cases) {
      const res = await add(appUuid, urlForm(`${siteUrl}/docs/`, fields));
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.errors?.[`items[0].${field}`]?.[0], JSON.stringify(fields)).toMatch(message);
    }
    expect(await list(appUuid)).toEqual([]);
  });
});
