import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../rag/parse/fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name));

let t: TestApp;
let alice: { token: string; user: { id: number } };
let bob: { token: string; user: { id: number } };
let site: http.Server;
let siteUrl: string;

/** A local "web site" for URL items. */
function startSite() {
  return new Promise<http.Server>((resolve) => {
    const server = http.createServer((req, res) => {
      if (req.url === '/guide') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(fixture('sample.html'));
      } else if (req.url?.startsWith('/crawl/')) {
        const page = req.url.slice('/crawl/'.length);
        const links: Record<string, string[]> = {
          a: ['/crawl/b', '/crawl/c#part', 'http://example.com/elsewhere', '/crawl/a', '/crawl/logo.png'],
          b: ['/crawl/d', '/crawl/a'],
          c: [],
          d: [],
        };
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<html><head><title>Page ${page}</title></head><body><h1>Page ${page}</h1><p>Crawled page ${page} about lighthouses.</p>${(links[page] ?? []).map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`,
        );
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/guide' });
        res.end();
      } else if (req.url === '/nul') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<html><head><title>Ho\u0000urs</title></head><body><p>Open\u0000 from nine.</p></body></html>',
        );
      } else if (req.url === '/image') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(fixture('image.png'));
      } else if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        res.end();
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('nope');
      }
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
  site = await startSite();
  const address = site.address() as { port: number };
  siteUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  site.close();
  await t.close();
});

type Item = {
  uuid: string;
  status: string;
  title: string;
  source: string | null;
  error: string | null;
  retryable: boolean;
  chunk_count: number;
};

function itemsForm(
  items: Array<{ type: string; value?: string; file?: [string, Buffer]; title?: string }>,
  name?: string,
) {
  const form = new FormData();
  if (name !== undefined) form.append('name', name);
  items.forEach((item, i) => {
    form.append(`items[${i}].type`, item.type);
    if (item.value !== undefined) form.append(`items[${i}].value`, item.value);
    if (item.title !== undefined) form.append(`items[${i}].title`, item.title);
    if (item.file) form.append(`items[${i}].file`, new Blob([new Uint8Array(item.file[1])]), item.file[0]);
  });
  return form;
}

async function createApp(token: string, name = 'Knowledge app') {
  const res = await t.call('POST', '/api/applications/', { token, form: itemsForm([], name) });
  expect(res.status).toBe(201);
  return res.body.uuid as string;
}

/** Waits until every item of the application is ready or failed. */
async function settled(token: string, appUuid: string, count?: number): Promise<Item[]> {
  for (let i = 0; i < 300; i++) {
    const res = await t.call<Item[]>('GET', `/api/applications/${appUuid}/knowledge/`, { token });
    const items = res.body;
    if (
      (count === undefined || items.length === count) &&
      items.every((x) => x.status === 'ready' || x.status === 'failed')
    )
      return items;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('items did not settle');
}

describe('creating an application with knowledge', () => {
  it('creates the application and queues every item (file, text, url); all become ready', async () => {
    const form = itemsForm(
      [
        { type: 'file', file: ['orchard.pdf', fixture('sample.pdf')] },
        { type: 'text', value: 'Opening hours\n\nThe shop opens at nine on weekdays.' },
        { type: 'url', value: `${siteUrl}/guide` },
        { type: 'file', file: ['lantern.docx', fixture('sample.docx')], title: 'Lantern manual' },
      ],
      'Field guide bot',
    );
    const res = await t.call('POST', '/api/applications/', { token: alice.token, form });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Field guide bot');
    const items = await settled(alice.token, res.body.uuid, 4);
    expect(items.map((i) => [i.status, i.title])).toEqual([
      ['ready', 'Orchard Field Guide'],
      ['ready', 'Opening hours'],
      ['ready', 'Granite Lantern Handbook'],
      ['ready', 'Lantern manual'],
    ]);
    for (const item of items) expect(item.chunk_count).toBeGreaterThan(0);

    const detail = await t.call('GET', `/api/applications/${res.body.uuid}/knowledge/${items[0]!.uuid}/`, {
      token: alice.token,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.mime_type).toBe('application/pdf');
    expect(detail.body.chunks.map((c: { page: number }) => c.page)).toContain(2);
    expect(detail.body.chunks.map((c: { content: string }) => c.content).join(' ')).toContain('Codling moth');
  });

  it('names the failing field and creates nothing', async () => {
    const before = (await t.call('GET', '/api/applications/', { token: alice.token })).body.length;
    const form = itemsForm(
      [
        { type: 'text', value: 'fine' },
        { type: 'url', value: 'ftp://example.com/file' },
        { type: 'text', value: '   ' },
        { type: 'video', value: 'x' },
        { type: 'file' },
        { type: 'file', file: ['tool.exe', Buffer.from('MZ')] },
      ],
      '',
    );
    const res = await t.call('POST', '/api/applications/', { token: alice.token, form });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      name: ['Required'],
      'items[1].value': ['Enter a web address starting with http:// or https://'],
      'items[2].value': ['Required'],
      'items[3].type': ['Must be file, text, url or qa'],
      'items[4].file': ['Required'],
      'items[5].file': [
        'Unsupported file type: use .pdf, .doc, .docx, .txt, .md, .html, .png, .jpg or .webp',
      ],
    });
    expect(res.body.detail).toBe('name: Required');
    expect((await t.call('GET', '/api/applications/', { token: alice.token })).body.length).toBe(before);
  });

  it('ingests text, files and web pages with NUL characters inside, without the NULs', async () => {
    const form = itemsForm(
      [
        { type: 'file', file: ['notes.txt', Buffer.from('Plain\u0000 text.')] },
        { type: 'file', file: ['notes.md', Buffer.from('# Mark\u0000down\n\nBody\u0000 text.')] },
        { type: 'file', file: ['page.html', Buffer.from('<p>Ht\u0000ml page.</p>')] },
        { type: 'file', file: ['na\u0000me.txt', Buffer.from('A file name with a NUL.')] },
        { type: 'text', value: 'Text\u0000 item.' },
        { type: 'url', value: `${siteUrl}/nul` },
      ],
      'With NULs',
    );
    const created = await t.call('POST', '/api/applications/', { token: alice.token, form });
    expect(created.status).toBe(201);
    const items = await settled(alice.token, created.body.uuid, 6);
    expect(items.map((i) => [i.status, i.error])).toEqual(items.map(() => ['ready', null]));
    expect(items.map((i) => i.title).sort()).toEqual([
      'A file name with a NUL.',
      'Hours',
      'Markdown',
      'Plain text.',
      'Text item.',
      'page',
    ]);
    expect(items.map((i) => i.source)).toContain('name.txt');
    for (const item of items) {
      const detail = await t.call('GET', `/api/applications/${created.body.uuid}/knowledge/${item.uuid}/`, {
        token: alice.token,
      });
      expect(detail.body.chunks.length).toBeGreaterThan(0);
      expect(JSON.stringify(detail.body)).not.toContain('\\u0000');
    }
  });

  it('caps text length and items per request', async () => {
    const long = await t.call('POST', '/api/applications/', {
      token: alice.token,
      form: itemsForm([{ type: 'text', value: 'x'.repeat(200_001) }], 'Long'),
    });
    expect(long.status).toBe(400);
    expect(long.body.errors['items[0].value']).toEqual(['At most 200,000 characters']);
    const many = Array.from({ length: KNOWLEDGE_LIMITS.itemsPerRequest + 1 }, () => ({
      type: 'text',
      value: 'hello',
    }));
    const tooMany = await t.call('POST', '/api/applications/', {
      token: alice.token,
      form: itemsForm(many, 'Many'),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.items).toEqual(['At most 100 items per request']);
  });
});

describe('knowledge endpoints', () => {
  it('adds items, lists them with status, and announces every change on the socket', async () => {
    const appUuid = await createApp(alice.token);
    const socket = new WebSocket(`${t.url.replace('http', 'ws')}/api/ws`, {
      headers: { authorization: `Token ${alice.token}` },
    });
    const events: Array<{ event: string; data: any }> = [];
    socket.on('message', (raw) => events.push(JSON.parse(raw.toString())));
    await new Promise((resolve) => socket.once('message', resolve));

    const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: alice.token,
      form: itemsForm([{ type: 'text', value: 'Ferry times\n\nThe ferry leaves at 7:15.', title: 'Ferry' }]),
    });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ type: 'text', title: 'Ferry', status: 'queued', source: null });
    const [item] = await settled(alice.token, appUuid, 1);
    expect(item!.status).toBe('ready');
    for (let i = 0; i < 50 && !events.some((e) => e.data?.item?.status === 'ready'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const statuses = events
      .filter((e) => e.event === 'kb_updates' && e.data.item.uuid === item!.uuid)
      .map((e) => e.data.item.status);
    expect(statuses[0]).toBe('queued');
    expect(statuses).toContain('processing');
    expect(statuses.at(-1)).toBe('ready');
    expect(events.find((e) => e.event === 'kb_updates')!.data.application_uuid).toBe(appUuid);
    socket.close();
  });

  it('accepts a full request of 100 items and announces every item queued, processing, then ready or failed', async () => {
    const appUuid = await createApp(alice.token);
    const socket = new WebSocket(`${t.url.replace('http', 'ws')}/api/ws`, {
      headers: { authorization: `Token ${alice.token}` },
    });
    const events: Array<{ event: string; data: any }> = [];
    socket.on('message', (raw) => events.push(JSON.parse(raw.toString())));
    await new Promise((resolve) => socket.once('message', resolve));

    // Indexed together in batches; the image that claims to be text fails alone.
    const items: Parameters<typeof itemsForm>[0] = Array.from(
      { length: KNOWLEDGE_LIMITS.itemsPerRequest - 1 },
      (_, i) => ({
        type: 'text',
        title: `Tide ${i}`,
        value: `Tide table ${i}\n\nHigh water at berth ${i} is at ${i % 24}:15.`,
      }),
    );
    items.splice(42, 0, { type: 'file', file: ['photo.txt', fixture('image.png')] });
    const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: alice.token,
      form: itemsForm(items),
    });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(KNOWLEDGE_LIMITS.itemsPerRequest);
    const listed = await settled(alice.token, appUuid, KNOWLEDGE_LIMITS.itemsPerRequest);
    expect(listed.filter((i) => i.status === 'failed').map((i) => i.title)).toEqual(['photo.txt']);
    expect(listed.filter((i) => i.status === 'ready' && i.chunk_count === 1)).toHaveLength(
      KNOWLEDGE_LIMITS.itemsPerRequest - 1,
    );
    const last = (uuid: string) => events.filter((e) => e.data?.item?.uuid === uuid).at(-1)?.data.item.status;
    for (let i = 0; i < 100 && listed.some((item) => last(item.uuid) !== item.status); i++)
      await new Promise((r) => setTimeout(r, 50));
    for (const item of listed) {
      const statuses = events
        .filter((e) => e.event === 'kb_updates' && e.data.item.uuid === item.uuid)
        .map((e) => e.data.item.status);
      expect(statuses).toEqual(['queued', 'processing', item.status]);
    }
    socket.close();
  });

  it('reports every failure reason in words', async () => {
    const appUuid = await createApp(alice.token);
    const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: alice.token,
      form: itemsForm([
        { type: 'file', file: ['locked.pdf', fixture('encrypted.pdf')] },
        { type: 'file', file: ['scan.pdf', fixture('scanned.pdf')] },
        { type: 'file', file: ['broken.pdf', fixture('corrupt.pdf')] },
        { type: 'file', file: ['photo.pdf', fixture('image.png')] },
        { type: 'url', value: `${siteUrl}/missing` },
        { type: 'url', value: `${siteUrl}/image` },
        { type: 'url', value: `${siteUrl}/to-metadata` },
      ]),
    });
    expect(res.status).toBe(201);
    const items = await settled(alice.token, appUuid, 7);
    expect(items.every((i) => i.status === 'failed' && i.chunk_count === 0)).toBe(true);
    const errors = items.map((i) => i.error);
    expect(errors[0]).toMatch(/encrypted \(password-protected\)/);
    expect(errors[1]).toMatch(/no text layer, and reading its pages with OCR .* found no text either/);
    expect(errors[2]).toMatch(/corrupt or incomplete/);
    expect(errors[3]).toBe('The file is named .pdf but its content is an image.');
    expect(errors[4]).toBe('Unreachable: the server answered HTTP 404 (Not Found).');
    expect(errors[5]).toBe('Not a web page: the address returned image/png.');
    expect(errors[6]).toMatch(/^Blocked address: 169\.254\.169\.254 is a link-local address/);
    // The same bytes fail the same way: a re-sync is offered for the web pages only (fetched anew).
    expect(items.map((i) => i.retryable)).toEqual([false, false, false, false, true, true, true]);
  });

  it('follows a redirect to the page and titles a URL by the page', async () => {
    const appUuid = await createApp(alice.token);
    await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: alice.token,
      form: itemsForm([{ type: 'url', value: `${siteUrl}/moved` }]),
    });
    const [item] = await settled(alice.token, appUuid, 1);
    expect(item).toMatchObject({ status: 'ready', title: 'Granite Lantern Handbook' });
  });

  it('crawls same-site links to the depth asked, as items of their own', async () => {
    const appUuid = await createApp(alice.token);
    const form = itemsForm([{ type: 'url', value: `${siteUrl}/crawl/a` }]);
    form.append('items[0].crawl_depth', '1');
    expect(
      (await t.call('POST', `/api/applications/${appUuid}/knowledge/`, { token: alice.token, form })).status,
    ).toBe(201);
    let items: Item[] = [];
    for (let i = 0; i < 100; i++) {
      items = await settled(alice.token, appUuid);
      if (items.length >= 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    items = await settled(alice.token, appUuid, 3);
    // b and c (the fragment dropped), not the other site, not the image, not a itself; d is 2 levels away.
    expect(items.map((i) => [i.title, i.status]).sort()).toEqual([
      ['Page a', 'ready'],
      ['Page b', 'ready'],
      ['Page c', 'ready'],
    ]);
    const bad = itemsForm([
      { type: 'url', value: `${siteUrl}/crawl/a` },
      { type: 'text', value: 'x' },
    ]);
    bad.append('items[0].crawl_depth', '5');
    bad.append('items[1].crawl_depth', '1');
    const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: alice.token,
      form: bad,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      'items[0].crawl_depth': ['A whole number from 0 to 2'],
      'items[1].crawl_depth': ['Only URL items follow links'],
    });
  });

  it('re-syncs an item and deletes it with its chunks and stored file', async () => {
    const appUuid = await createApp(alice.token);
    await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: alice.token,
      form: itemsForm([{ type: 'file', file: ['notes.md', fixture('sample.md')] }]),
    });
    const [item] = await settled(alice.token, appUuid, 1);
    const itemPath = `/api/applications/${appUuid}/knowledge/${item!.uuid}/`;
    const resync = await t.call('POST', `${itemPath}resync/`, { token: alice.token });
    expect(resync.status).toBe(202);
    expect(resync.body.status).toBe('queued');
    const [again] = await settled(alice.token, appUuid, 1);
    expect(again!.status).toBe('ready');

    const { rows } = await t.database.query<{ id: number; file_path: string }>(
      'SELECT id, file_path FROM knowledge_items WHERE uuid = $1',
      [item!.uuid],
    );
    const stored = path.join(t.config.dataDir, 'files', rows[0]!.file_path);
    expect(fs.existsSync(stored)).toBe(true);
    expect((await t.call('DELETE', itemPath, { token: alice.token })).status).toBe(204);
    expect((await t.call('GET', itemPath, { token: alice.token })).status).toBe(404);
    const chunks = await t.database.query('SELECT 1 FROM knowledge_chunks WHERE item_id = $1', [rows[0]!.id]);
    expect(chunks.rows).toEqual([]);
    expect(fs.existsSync(stored)).toBe(false);
  });

  it('scopes everything to the owner: another user gets 404', async () => {
    const appUuid = await createApp(alice.token);
    const added = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: alice.token,
      form: itemsForm([{ type: 'text', value: 'private notes' }]),
    });
    const itemPath = `/api/applications/${appUuid}/knowledge/${added.body[0].uuid}/`;
    for (const [method, pathname] of [
      ['GET', `/api/applications/${appUuid}/knowledge/`],
      ['GET', itemPath],
      ['DELETE', itemPath],
      ['POST', `${itemPath}resync/`],
    ] as const) {
      const res = await t.call(method, pathname, { token: bob.token });
      expect(res.status, `${method} ${pathname}`).toBe(404);
    }
    const add = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: bob.token,
      form: itemsForm([{ type: 'text', value: 'intruder' }]),
    });
    expect(add.status).toBe(404);
    const bobsApp = await createApp(bob.token);
    // An item of one application is not reachable through another.
    expect(
      (
        await t.call('GET', `/api/applications/${bobsApp}/knowledge/${added.body[0].uuid}/`, {
          token: bob.token,
        })
      ).status,
    ).toBe(404);
    expect((await t.call('GET', `/api/applications/${appUuid}/knowledge/`)).status).toBe(401);
  });

  it('rejects an empty request and a malformed item id', async () => {
    const appUuid = await createApp(alice.token);
    const empty = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, {
      token: alice.token,
      form: itemsForm([]),
    });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ items: ['Add at least one item.'] });
    expect(
      (await t.call('GET', `/api/applications/${appUuid}/knowledge/nope/`, { token: alice.token })).status,
    ).toBe(404);
  });
});

describe('upload size cap', () => {
  it('refuses a file over the configured size with a 413 naming the field, creating nothing', async () => {
    const small = await startTestApp({ maxUploadBytes: 4096 });
    try {
      const { token } = await small.signUp();
      const form = itemsForm([{ type: 'file', file: ['orchard.pdf', fixture('sample.pdf')] }], 'Too big');
      const res = await small.call('POST', '/api/applications/', { token, form });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('payload_too_large');
      expect(Object.keys(res.body.errors)).toEqual(['items[0].file']);
      expect((await small.call('GET', '/api/applications/', { token })).body).toEqual([]);
    } finally {
      await small.close();
    }
  });
});
