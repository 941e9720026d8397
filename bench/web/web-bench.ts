/**
 * Web bench (issue 3): gzip bytes of the JS and CSS a browser loads for /login and /applications/{id},
 * and SSR time to first byte (p50, p90) for both, against the real server with a production build.
 *
 *   npx tsx bench/web/web-bench.ts [--requests 100]
 *
 * Builds apps/web into a temporary directory (like the e2e run), starts `apps/api/src/server.ts` with a
 * fresh DATA_DIR, registers and verifies a user through the outbox, creates an application, then measures.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startServer } from '../../e2e/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REQUESTS = Number(process.argv[process.argv.indexOf('--requests') + 1]) || 100;
const TARGET_LOGIN_JS = 150 * 1024;
const BOT_FREE_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

function build(): string {
  // Inside apps/web: the server build imports react & co. from the workspace's node_modules.
  const dir = fs.mkdtempSync(path.join(ROOT, 'apps/web/.e2e-build-bench-'));
  execFileSync('npx', ['react-router', 'build'], {
    cwd: path.join(ROOT, 'apps/web'),
    env: { ...process.env, WEB_BUILD_DIR: dir, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}

/** Every script, module preload and stylesheet the page's HTML makes the browser fetch. */
function assetsOf(html: string): { js: string[]; css: string[] } {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) js.add(m[1]!);
  // React Router's entry imports (inline module script) are also preloaded above; catch any extra.
  for (const m of html.matchAll(/import\(?\s*"(\/assets\/[^"]+\.js)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = m[0];
    const href = /href="([^"]+)"/.exec(tag)?.[1];
    if (href && /rel="stylesheet"/.test(tag)) css.add(href);
  }
  return { js: [...js], css: [...css] };
}

async function gzipBytes(base: string, urls: string[]): Promise<{ raw: number; gzip: number }> {
  let raw = 0;
  let gzip = 0;
  for (const u of urls) {
    const res = await fetch(new URL(u, base));
    if (!res.ok) throw new Error(`${u}: ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip };
}

/** Time from sending the request to the first byte of the body. */
function ttfb(url: string, cookie?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get(
      url,
      { headers: { 'user-agent': BOT_FREE_UA, ...(cookie ? { cookie } : {}) } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        res.once('data', () => {
          resolve(Number(process.hrtime.bigint() - started) / 1e6);
          res.resume();
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function main() {
  console.log('building the web app…');
  const buildDir = build();
  process.env.WEB_BUILD_DIR = buildDir;
  const server = await startServer();
  try {
    const post = (p: string, body: unknown, token?: string) =>
      fetch(server.url + p, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Token ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const email = `bench-${Date.now()}@example.com`;
    const password = 'granite-lantern-49';
    await post('/api/register/', { email, username: email, password });
    const link = (await server.lastMail(email)).links.find((l) => l.includes('verify-email'))!;
    await post('/api/verify-email/', { token: new URL(link).searchParams.get('token') });
    const { token } = (await (await post('/api/login/', { email, password })).json()) as { token: string };
    const form = new FormData();
    form.set('name', 'Bench application');
    const app = (await (
      await fetch(`${server.url}/api/applications/`, {
        method: 'POST',
        headers: { authorization: `Token ${token}` },
        body: form,
      })
    ).json()) as { uuid: string };
    const cookie = `auth_token=${token}`;

    const pages = [
      { name: '/login', url: `${server.url}/login`, cookie: undefined },
      { name: '/applications/{id}', url: `${server.url}/applications/${app.uuid}`, cookie },
    ];
    const rows: string[] = [];
    for (const p of pages) {
      const res = await fetch(p.url, {
        headers: { 'user-agent': BOT_FREE_UA, ...(p.cookie ? { cookie: p.cookie } : {}) },
      });
      if (res.status !== 200) throw new Error(`${p.name}: ${res.status}`);
      const html = await res.text();
      const { js, css } = assetsOf(html);
      const jsBytes = await gzipBytes(server.url, js);
      const cssBytes = await gzipBytes(server.url, css);
      const htmlGzip = gzipSync(Buffer.from(html), { level: 9 }).length;

      for (let i = 0; i < 10; i++) await ttfb(p.url, p.cookie); // warm-up
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) times.push(await ttfb(p.url, p.cookie));

      rows.push(
        [
          p.name.padEnd(20),
          `JS ${js.length} files ${kb(jsBytes.gzip)} gzip (${kb(jsBytes.raw)} raw)`.padEnd(44),
          `CSS ${kb(cssBytes.gzip)} gzip`.padEnd(18),
          `HTML ${kb(htmlGzip)} gzip`.padEnd(18),
          `TTFB p50 ${quantile(times, 0.5).toFixed(1)} ms, p90 ${quantile(times, 0.9).toFixed(1)} ms (n=${REQUESTS})`,
        ].join(' '),
      );
      if (p.name === '/login') {
        console.log(
          `target: /login JS under ${kb(TARGET_LOGIN_JS)} gzip → ${jsBytes.gzip < TARGET_LOGIN_JS ? 'met' : 'MISSED'} (${kb(jsBytes.gzip)})`,
        );
      }
    }
    console.log(`\nweb bench (${os.cpus().length} CPUs, Node ${process.version}, gzip level 9, loopback)`);
    for (const r of rows) console.log(r);
  } finally {
    await server.stop();
    fs.rmSync(buildDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
