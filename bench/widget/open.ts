/**
 * The website widget as a visitor's browser gets it (issue 10), in one run:
 *  - bytes: the loader (widget.js) and the chat's JS and CSS, raw and gzip (budgets: loader ≤ 5 KB
 *    gzip, chat JS ≤ 80 KB gzip). The server sends them uncompressed; a proxy or CDN in front
 *    compresses them, so gzip is what a visitor downloads there.
 *  - time from the click on the launcher to a usable chat (the iframe's chat mounted, its composer
 *    ready: the moment it posts `ready` to the host page), measured inside the host page. Cold: a
 *    new browser context each round (empty cache); warm: the same context, the host page reloaded.
 *    Beside it, the reference: fetching the embed page, embed.js and embed.css from Node over loopback.
 *
 *   npx tsx bench/widget/open.ts [--rounds 20]
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { buildWidget, OUT_DIR } from '../../apps/widget/scripts/build.mjs';
import { startServer } from '../../e2e/server.ts';
import { apiCaller, argValue } from '../lib.ts';

const ROUNDS = Number(argValue('--rounds') ?? 20);
const KB = 1024;

await buildWidget();
const sizes = ['widget.js', 'embed.js', 'embed.css'].map((file) => {
  const content = fs.readFileSync(path.join(OUT_DIR, file));
  return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
});

const server = await startServer();
const call = apiCaller(() => server.url);
const email = `bench-widget-${Date.now()}@example.com`;
const password = 'granite-lantern-49';
await call('POST', '/api/register/', undefined, { email, username: email, password });
const link = (await server.lastMail(email)).links.find((l) => l.includes('verify-email'))!;
await call('POST', '/api/verify-email/', undefined, { token: new URL(link).searchParams.get('token') });
const { token } = await call<{ token: string }>('POST', '/api/login/', undefined, { email, password });
const form = new FormData();
form.set('name', 'Lighthouse');
const app = await call<{ uuid: string }>('POST', '/api/applications/', token, form);
const settings = await call<{ embed_snippet: string }>('GET', `/api/applications/${app.uuid}/widget/`, token);
const host = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title><script>' +
      "document.addEventListener('click',function(){window.clicked=performance.now()},true);" +
      "addEventListener('message',function(e){if(e.data&&e.data.cairn==='ready')window.usable=performance.now()});" +
      `</script></head><body><h1>Host page</h1>${settings.embed_snippet}</body></html>`,
  );
});
await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
const hostOrigin = `http://localhost:${(host.address() as AddressInfo).port}`;
await call('PATCH', `/api/applications/${app.uuid}/widget/`, token, {
  enabled: true,
  allowed_origins: [hostOrigin],
  greeting: 'Hello!',
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

/** Opens the host page, clicks the launcher; the click-to-usable time measured by the page itself. */
async function clickToUsable(page: Page): Promise<number> {
  await page.goto(`${hostOrigin}/`);
  const launcher = page.getByRole('button', { name: 'Open chat: Lighthouse' });
  await launcher.waitFor();
  await launcher.click();
  await page.waitForFunction(() => (globalThis as unknown as { usable?: number }).usable !== undefined);
  return page.evaluate(() => {
    const w = globalThis as unknown as { usable: number; clicked: number };
    return w.usable - w.clicked;
  });
}

async function reference(): Promise<number> {
  const started = performance.now();
  const html = await (
    await fetch(`${server.url}/embed/v1/${app.uuid}?origin=${encodeURIComponent(hostOrigin)}`)
  ).text();
  if (!html.includes('cairn-boot')) throw new Error('the embed page did not answer');
  await Promise.all(
    ['embed.js', 'embed.css'].map(async (f) =>
      (await fetch(`${server.url}/embed/assets/${f}`)).arrayBuffer(),
    ),
  );
  return performance.now() - started;
}

const cold: number[] = [];
const warm: number[] = [];
const network: number[] = [];
const warmContext = await browser.newContext();
const warmPage = await warmContext.newPage();
await clickToUsable(warmPage); // fills the cache
for (let i = 0; i < ROUNDS; i++) {
  const context = await browser.newContext();
  cold.push(await clickToUsable(await context.newPage()));
  await context.close();
  warm.push(await clickToUsable(warmPage));
  network.push(await reference());
}
await browser.close();
host.close();
await server.stop();

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log('widget bytes (raw / gzip -9):');
for (const s of sizes) console.log(`  ${s.file.padEnd(10)} ${s.raw} B / ${(s.gzip / KB).toFixed(2)} KB`);
console.log(
  `budgets: loader ${(sizes[0]!.gzip / KB).toFixed(2)} ≤ 5 KB gzip, chat JS ${(sizes[1]!.gzip / KB).toFixed(2)} ≤ 80 KB gzip`,
);
console.log(
  `launcher click → usable chat, ${ROUNDS} rounds: cold p50 ${p50(cold).toFixed(1)} ms, warm p50 ${p50(warm).toFixed(1)} ms`,
);
console.log(
  `reference: embed page + embed.js + embed.css fetched from Node, p50 ${p50(network).toFixed(1)} ms`,
);
