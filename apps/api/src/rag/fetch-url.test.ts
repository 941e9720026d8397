import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPublicAddress, BlockedAddressError, resolvePublicAddress } from '../lib/ssrf.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { FetchError, fetchUrl } from './fetch-url.ts';

const strict = { allowLoopback: false };
const loose = { allowLoopback: true };

describe('address checks', () => {
  const blocked = [
    '127.0.0.1',
    '2130706433', // decimal 127.0.0.1
    '0x7f000001', // hex
    '0177.0.0.1', // octal
    '127.1',
    '::1',
    '::ffff:127.0.0.1', // IPv4-mapped
    '::ffff:7f00:1',
    '::127.0.0.1', // IPv4-compatible
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    'fd00:ec2::254', // AWS metadata over IPv6
    '100.64.0.1', // CGNAT
    '100.100.100.200', // Alibaba metadata (inside CGNAT)
    '224.0.0.1', // multicast
    'ff02::1',
    '0.0.0.0',
    '::',
    'fe80::1', // link-local
    'fc00::1', // unique local
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    '2002:a00:1::1', // 6to4 of 10.0.0.1
    '255.255.255.255',
  ];
  it.each(blocked)('refuses %s', (address) => {
    expect(() => assertPublicAddress(address, strict)).toThrow(BlockedAddressError);
  });

  it('allows public addresses, and loopback only when allowed', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.216.34']) {
      expect(() => assertPublicAddress(address, strict)).not.toThrow();
    }
    expect(() => assertPublicAddress('127.0.0.1', loose)).not.toThrow();
    expect(() => assertPublicAddress('::ffff:127.0.0.1', loose)).not.toThrow();
    // The test switch lets loopback through and nothing else.
    expect(() => assertPublicAddress('10.0.0.1', loose)).toThrow(BlockedAddressError);
    expect(() => assertPublicAddress('169.254.169.254', loose)).toThrow(/link-local.*metadata/);
  });

  it('refuses a name if any of its addresses is internal, and returns the checked address', async () => {
    const resolver = async (name: string) =>
      name === 'mixed.test'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.1.2.3', family: 4 },
          ]
        : [{ address: '93.184.216.34', family: 4 }];
    const blocked = await resolvePublicAddress('mixed.test', strict, resolver).catch((e: Error) => e);
    // The address a name resolves to is never told.
    expect((blocked as Error).message).toBe(
      'Blocked address: mixed.test points to an address that is not on the public internet. Only public web addresses can be fetched. To reach this machine while testing, start Cairn with ALLOW_PRIVATE_URLS=true.',
    );
    await expect(resolvePublicAddress('public.test', strict, resolver)).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });
});

describe('fetching', () => {
  let server: http.Server;
  let base: string;
  let port: number;
  const userAgents: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      userAgents.push(req.headers['user-agent'] ?? '');
      const url = req.url ?? '/';
      if (url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<h1>Hello</h1>');
      } else if (url === '/gzip') {
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync('<p>compressed</p>'));
      } else if (url === '/bomb') {
        // 2 MB of zeros compress to a few KB: the cap counts decompressed bytes.
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x20)));
      } else if (url === '/big') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(Buffer.alloc(2 * 1024 * 1024, 0x41));
      } else if (url.startsWith('/loop')) {
        res.writeHead(302, { location: `/loop${url.length}` });
        res.end();
      } else if (url === '/to-private') {
        res.writeHead(301, { location: 'http://10.0.0.7/admin' });
        res.end();
      } else if (url === '/to-ftp') {
        res.writeHead(302, { location: 'ftp://example.com/' });
        res.end();
      } else if (url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<p>');
        // Never ends: the time cap must.
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const options = { ...loose, userAgent: 'CairnBot/1.0 (test)', maxBytes: 1024 * 1024 };
  const reason = (promise: Promise<unknown>) =>
    promise.then(
      () => 'fetched',
      (error: unknown) => (error instanceof FetchError ? `${error.reason}: ${error.message}` : String(error)),
    );

  it('fetches a page with an honest User-Agent, decompressing it', async () => {
    const page = await fetchUrl(`${base}/page`, options);
    expect(page.body.toString()).toBe('<h1>Hello</h1>');
    expect(page.contentType).toBe('text/html');
    expect(userAgents.at(-1)).toBe('CairnBot/1.0 (test)');
    expect((await fetchUrl(`${base}/gzip`, options)).body.toString()).toBe('<p>compressed</p>');
  });

  it('refuses loopback in every spelling unless allowed', async () => {
    const strictOptions = { ...options, allowLoopback: false };
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '[::ffff:127.0.0.1]',
      '[::1]',
      'localhost',
    ]) {
      expect(await reason(fetchUrl(`http://${host}:${port}/page`, strictOptions)), host).toMatch(
        /^blocked: Blocked address: /,
      );
    }
    expect(await reason(fetchUrl('http://169.254.169.254/latest/meta-data/', strictOptions))).toMatch(
      /^blocked: .*link-local/,
    );
  });

  it('connects to the address it checked, whatever DNS says later (no rebinding window)', async () => {
    let calls = 0;
    // First answer public-looking loopback (allowed in loose mode), later answers private: only one lookup happens.
    const resolver = async () => {
      calls++;
      return calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
    };
    const page = await fetchUrl(`http://rebind.test:${port}/page`, { ...options, resolver });
    expect(page.body.toString()).toBe('<h1>Hello</h1>');
    expect(calls).toBe(1);
  });

  it('re-checks every redirect and caps them', async () => {
    expect(await reason(fetchUrl(`${base}/to-private`, options))).toBe(
      'blocked: Blocked address: 10.0.0.7 is a private network address. Only public web addresses can be fetched. To reach this machine while testing, start Cairn with ALLOW_PRIVATE_URLS=true.',
    );
    expect(await reason(fetchUrl(`${base}/to-ftp`, options))).toMatch(/^invalid_url: Only http/);
    expect(await reason(fetchUrl(`${base}/loop`, { ...options, maxRedirects: 3 }))).toBe(
      'too_many_redirects: Unreachable: more than 3 redirects.',
    );
  });

  it('caps size (also after decompression) and time', async () => {
    expect(await reason(fetchUrl(`${base}/big`, options))).toBe(
      'too_large: Too large: the page is larger than 1 MB.',
    );
    expect(await reason(fetchUrl(`${base}/bomb`, options))).toMatch(/^too_large/);
    expect(await reason(fetchUrl(`${base}/slow`, { ...options, timeoutMs: 300 }))).toMatch(/^timeout: /);
  });

  it('refuses other schemes and credentials in the URL', async () => {
    expect(await reason(fetchUrl('file:///etc/passwd', options))).toMatch(/^invalid_url/);
    expect(await reason(fetchUrl(`http://user:pw@127.0.0.1:${port}/page`, options))).toMatch(/^invalid_url/);
  });
});

describe('URL items on an app that blocks private addresses', () => {
  let t: TestApp;
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({ allowPrivateUrls: false });
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<h1>Internal admin</h1><p>secret</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.close();
    await t.close();
  });

  it('fails the item with "blocked address" and indexes nothing', async () => {
    const { token } = await t.signUp();
    const form = new FormData();
    form.append('name', 'SSRF');
    const urls = [
      `http://localhost:${port}/`,
      `http://2130706433:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
    ];
    urls.forEach((url, i) => {
      form.append(`items[${i}].type`, 'url');
      form.append(`items[${i}].value`, url);
    });
    const created = await t.call('POST', '/api/applications/', { token, form });
    expect(created.status).toBe(201);
    let items: Array<{ status: string; error: string }> = [];
    for (let i = 0; i < 100; i++) {
      items = (await t.call('GET', `/api/applications/${created.body.uuid}/knowledge/`, { token })).body;
      if (items.every((x) => x.status === 'failed' || x.status === 'ready')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(items.map((x) => x.status)).toEqual(['failed', 'failed', 'failed']);
    expect(items[0]!.error).toBe(
      'Blocked address: localhost points to an address that is not on the public internet. Only public web addresses can be fetched. To reach this machine while testing, start Cairn with ALLOW_PRIVATE_URLS=true.',
    );
    expect(items[1]!.error).toMatch(/^Blocked address: 127\.0\.0\.1 is a loopback address/);
    expect(items[2]!.error).toMatch(/^Blocked address: 127\.0\.0\.1 is a loopback address/);
    const { rows } = await t.database.query('SELECT count(*)::int AS n FROM knowledge_chunks');
    expect(rows[0]).toEqual({ n: 0 });
  });
});
