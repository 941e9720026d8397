/**
 * Web bench (issues 3 and 13), against the real server with a production build, in one run:
 *
 * - SSR time to first byte (p50, p90) of the signed-in pages, each beside the p50 of every API call
 *   that page needs, measured against the same server in the same rounds (page and API calls take
 *   turns, so both see the same machine load). Target: p50 ≤ 20 ms and ≤ 3× the slowest API call.
 * - JS a browser loads for each page, gzip: what the HTML references, and everything Chromium
 *   actually fetched until the network was idle (lazy chunks a page's content needs included).
 *   Targets: /login ≤ 100 KB, any signed-in page ≤ 160 KB.
 *
 *   npx tsx bench/web/web-bench.ts [--requests 100] [--chunks] [--chats 200]
 *
 * `--chats N` gives the application N more web chats before measuring (a month of an owner's use:
 * the sidebar, hence every signed-in page, carries them).
 * `--chunks` lists every file Chromium fetched for each page with its gzip size (what to look at
 * when a page is over its budget).
 *
 * Builds apps/web into a temporary directory (like the e2e run), starts `apps/api/src/server.ts` with a
 * fresh DATA_DIR, registers and verifies a user through the outbox, creates an application with a text
 * item and one answered chat, then measures.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { LOGIN_JS_BUDGET, SIGNED_IN_JS_BUDGET, scriptsOf } from '../../e2e/js-budget.ts';
import { startServer } from '../../e2e/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REQUESTS = Number(process.argv[process.argv.indexOf('--requests') + 1]) || 100;
const CHUNKS = process.argv.includes('--chunks');
const CHATS = process.argv.includes('--chats')
  ? Number(process.argv[process.argv.indexOf('--chats') + 1])
  : 0;
const KB = 1024;
const TARGET_TTFB_MS = 20;
const TARGET_TTFB_TIMES_API = 3;
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

const gzipCache = new Map<string, number>();
async function gzipBytes(base: string, urls: Iterable<string>): Promise<number> {
  let gzip = 0;
  for (const u of urls) {
    const url = new URL(u, base).pathname;
    let bytes = gzipCache.get(url);
    if (bytes === undefined) {
      const res = await fetch(new URL(url, base));
      if (!res.ok) throw new Error(`${u}: ${res.status}`);
      bytes = gzipSync(Buffer.from(await res.arrayBuffer()), { level: 9 }).length;
      gzipCache.set(url, bytes);
    }
    gzip += bytes;
  }
  return gzip;
}

/** Time from sending the request to the first byte of the body. */
function ttfb(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get(url, { headers: { 'user-agent': BOT_FREE_UA, ...headers } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
      res.once('data', () => {
        resolve(Number(process.hrtime.bigint() - started) / 1e6);
        res.resume();
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

interface Page {
  name: string;
  path: string;
  signedIn: boolean;
  /** The API calls the page's loaders make (spec §2's navigation step included). */
  api: string[];
}

async function main() {
  console.log('building the web app…');
  const buildDir = build();
  process.env.WEB_BUILD_DIR = buildDir;
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const call = async <T>(method: string, p: string, body?: unknown, token?: string): Promise<T> => {
      const res = await fetch(server.url + p, {
        method,
        headers: {
          ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Token ${token}` } : {}),
        },
        body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const email = `bench-${Date.now()}@example.com`;
    const password = 'granite-lantern-49';
    await call('POST', '/api/register/', { email, username: email, password });
    const link = (await server.lastMail(email)).links.find((l) => l.includes('verify-email'))!;
    await call('POST', '/api/verify-email/', { token: new URL(link).searchParams.get('token') });
    const { token } = await call<{ token: string }>('POST', '/api/login/', { email, password });
    const me = await call<{ sender_identifier: string }>('GET', '/api/me/', undefined, token);
    const form = new FormData();
    form.set('name', 'Bench application');
    form.set('items[0].type', 'text');
    form.set('items[0].title', 'Opening hours');
    form.set('items[0].value', 'We open at **9** on weekdays and at 10 on Saturdays. We close on Sundays.');
    const app = await call<{ uuid: string }>('POST', '/api/applications/', form, token);
    const appPath = `/api/applications/${app.uuid}`;
    for (let i = 0; ; i++) {
      const items = await call<{ status: string }[]>('GET', `${appPath}/knowledge/`, undefined, token);
      if (items.every((item) => item.status === 'ready')) break;
      if (i > 300) throw new Error('the knowledge item did not become ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    const sent = await call<{ chatroom: { uuid: string } }>(
      'POST',
      `${appPath}/chatrooms/send-message/`,
      {
        chatroom_identifier: 'new_chat',
        message: 'When do you open?',
        sender_identifier: me.sender_identifier,
        metadata: { source: 'web' },
        send_to_user: false,
      },
      token,
    );
    const room = sent.chatroom.uuid;
    for (let i = 0; ; i++) {
      const { messages } = await call<{ messages: { status: string }[] }>(
        'GET',
        `${appPath}/chatrooms/${room}/messages/`,
        undefined,
        token,
      );
      if (messages.length >= 2 && messages.every((m) => m.status === 'complete')) break;
      if (i > 300) throw new Error('the answer did not complete');
      await new Promise((r) => setTimeout(r, 100));
    }

    for (let i = 1; i <= CHATS; i++) {
      await call(
        'POST',
        `${appPath}/chatrooms/send-message/`,
        {
          chatroom_identifier: 'new_chat',
          message: `Question ${i}: are you open on public holidays, and until when?`,
          sender_identifier: me.sender_identifier,
          metadata: { source: 'web' },
          send_to_user: false,
        },
        token,
      );
    }
    // Their answers are written before measuring starts.
    for (let i = 0; CHATS; i++) {
      const res = await call<{ chatrooms: unknown[] }>('GET', `${appPath}/chatrooms/`, undefined, token);
      const open = await call<{ messages: { status: string }[] }>(
        'GET',
        `${appPath}/chatrooms/${(res.chatrooms[0] as { uuid: string }).uuid}/messages/`,
        undefined,
        token,
      );
      if (open.messages.every((m) => m.status === 'complete')) break;
      if (i > 300) throw new Error('the answers did not complete');
      await new Promise((r) => setTimeout(r, 100));
    }

    // The layout's navigation step: one call (decision 003), for the page's application.
    const navigation = [`/api/navigation/?application=${app.uuid}`];
    const pages: Page[] = [
      { name: '/login', path: '/login', signedIn: false, api: [] },
      {
        name: '/applications/{id}',
        path: `/applications/${app.uuid}`,
        signedIn: true,
        // The overview's own loader: models, items, and the applications' summaries for its counts.
        api: [...navigation, '/api/models/', `${appPath}/knowledge/`, '/api/applications/summaries/'],
      },
      {
        name: 'knowledge base',
        path: `/applications/${app.uuid}/knowledge-base`,
        signedIn: true,
        api: [...navigation, `${appPath}/knowledge/`],
      },
      {
        name: 'messages view',
        path: `/applications/${app.uuid}/messages/${room}`,
        signedIn: true,
        api: [...navigation, `${appPath}/chatrooms/${room}/messages/`],
      },
      {
        name: 'analytics',
        path: `/applications/${app.uuid}/analytics`,
        signedIn: true,
        api: [...navigation, `${appPath}/analytics/`],
      },
      {
        name: 'API keys & widget',
        path: `/applications/${app.uuid}/api-keys-and-widget`,
        signedIn: true,
        api: [...navigation, `${appPath}/api-keys/`, `${appPath}/widget/`],
      },
      {
        name: '/settings/models',
        path: '/settings/models',
        signedIn: true,
        api: ['/api/navigation/', '/api/model-providers/'],
      },
      {
        name: '/settings/account',
        path: '/settings/account',
        signedIn: true,
        api: ['/api/navigation/', '/api/me/sessions/', '/api/me/email/'],
      },
    ];

    const context = await browser.newContext({ userAgent: BOT_FREE_UA });
    const host = new URL(server.url).hostname;
    const lines: string[] = [];
    for (const page of pages) {
      const cookie = page.signedIn ? `auth_token=${token}` : undefined;
      const pageHeaders: Record<string, string> = cookie ? { cookie } : {};
      const apiHeaders = { authorization: `Token ${token}` };

      const html = await (
        await fetch(server.url + page.path, { headers: { 'user-agent': BOT_FREE_UA, ...pageHeaders } })
      ).text();
      const initialJs = await gzipBytes(server.url, scriptsOf(html));
      await context.clearCookies();
      if (cookie) await context.addCookies([{ name: 'auth_token', value: token, domain: host, path: '/' }]);
      const tab = await context.newPage();
      const loaded = new Set<string>();
      tab.on('response', (res) => {
        const url = new URL(res.url());
        // The web app's own files: the widget preview's iframe (API keys & widget) is the widget's bundle, not this page's.
        if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) loaded.add(url.pathname);
      });
      await tab.goto(server.url + page.path, { waitUntil: 'networkidle' });
      await tab.close();
      const browserJs = await gzipBytes(server.url, loaded);

      const pageTimes: number[] = [];
      const apiTimes = page.api.map(() => [] as number[]);
      const round = async (record: boolean) => {
        const t = await ttfb(server.url + page.path, pageHeaders);
        if (record) pageTimes.push(t);
        for (const [i, p] of page.api.entries()) {
          const a = await ttfb(server.url + p, apiHeaders);
          if (record) apiTimes[i]!.push(a);
        }
      };
      for (let i = 0; i < 10; i++) await round(false); // warm-up
      for (let i = 0; i < REQUESTS; i++) await round(true);

      const p50 = quantile(pageTimes, 0.5);
      const apiP50 = apiTimes.map((t) => quantile(t, 0.5));
      const slowest = Math.max(0, ...apiP50);
      lines.push(`\n${page.name}  (${page.path.replace(app.uuid, '{id}').replace(room, '{room}')})`);
      const ttfbTarget = page.api.length
        ? `target ≤ ${TARGET_TTFB_MS} ms and ≤ ${TARGET_TTFB_TIMES_API}× slowest API (${ms(TARGET_TTFB_TIMES_API * slowest)}) → ${verdict(p50 <= TARGET_TTFB_MS && p50 <= TARGET_TTFB_TIMES_API * slowest)}`
        : '';
      lines.push(
        `  SSR TTFB  p50 ${ms(p50)}, p90 ${ms(quantile(pageTimes, 0.9))} (n=${REQUESTS})  ${ttfbTarget}`,
      );
      for (const [i, p] of page.api.entries()) {
        lines.push(
          `    API ${`GET ${p.replace(app.uuid, '{id}').replace(room, '{room}')}`.padEnd(52)} p50 ${ms(apiP50[i]!)}`,
        );
      }
      const jsTarget = page.signedIn ? SIGNED_IN_JS_BUDGET : LOGIN_JS_BUDGET;
      lines.push(
        `  JS gzip   ${kb(browserJs)} loaded by Chromium (${loaded.size} files), ${kb(initialJs)} in the HTML  target ≤ ${kb(jsTarget)} → ${verdict(browserJs <= jsTarget)}`,
      );
      if (CHUNKS) {
        const files = [...loaded]
          .map((f) => ({ f, bytes: gzipCache.get(f)! }))
          .sort((a, b) => b.bytes - a.bytes);
        for (const { f, bytes } of files) lines.push(`    ${kb(bytes).padStart(9)}  ${f}`);
      }
    }
    console.log(
      `\nweb bench (${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}, gzip level 9, loopback, ${CHATS + 1} chat${CHATS ? 's' : ''})`,
    );
    for (const l of lines) console.log(l);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(buildDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
