/**
 * Ingestion throughput through the API of a real server process (the built-in default models):
 *   1. one 200-page text PDF uploaded as a file item → pages/s from upload to `ready`;
 *   2. 5,000 short texts (50 per request, the per-request cap) → items/s from the first upload
 *      until every item is `ready`.
 * Also prints the server's peak resident memory (VmHWM).
 *
 *   npx tsx bench/knowledge-ingest/run.ts                      # embedded PGlite
 *   npx tsx bench/knowledge-ingest/run.ts --database-url postgres://postgres@127.0.0.1:5432/postgres
 *       (a throwaway database is created next to the given one and dropped afterwards)
 *   --pages N --texts N to change the sizes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminQuery, apiCaller, argValue } from '../lib.ts';
import { makePdf } from './make-pdf.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PORT = Number(process.env.BENCH_PORT ?? 3310);
const base = `http://127.0.0.1:${PORT}`;
const call = apiCaller(() => base);
const BATCH = 50;

const PAGES = Number(argValue('--pages') ?? 200);
const TEXTS = Number(argValue('--texts') ?? 5000);

const adminUrl = argValue('--database-url');
let databaseUrl: string | undefined;
const dbName = `cairn_bench_ingest_${process.pid}`;
if (adminUrl) {
  await adminQuery(adminUrl, `CREATE DATABASE ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-ingest-'));
const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl ?? '',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let peakRssKb = 0;
const sampler = setInterval(() => {
  try {
    const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
    peakRssKb = Math.max(peakRssKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
  } catch {
    // Not on Linux, or the process is gone.
  }
}, 200);

async function cleanup() {
  clearInterval(sampler);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${dbName}`);
}

try {
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error('the server exited');
    if (i > 600) throw new Error('the server did not start');
    try {
      if ((await fetch(`${base}/api/health/`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const email = `bench-${Date.now()}@example.com`;
  const password = 'granite-lantern-49';
  await call('POST', '/api/register/', undefined, { email, username: email, password });
  const outbox = path.join(dataDir, 'outbox');
  let verified = false;
  for (let i = 0; i < 100 && !verified; i++) {
    for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox) : []) {
      const token = /verify-email\?token=([\w-]+)/.exec(
        fs.readFileSync(path.join(outbox, file), 'utf8'),
      )?.[1];
      if (token) {
        await call('POST', '/api/verify-email/', undefined, { token });
        verified = true;
      }
    }
    if (!verified) await new Promise((r) => setTimeout(r, 100));
  }
  const { token } = await call<{ token: string }>('POST', '/api/login/', undefined, { email, password });

  async function waitAllReady(appUuid: string, count: number) {
    for (;;) {
      const items = await call<Array<{ status: string; error: string | null }>>(
        'GET',
        `/api/applications/${appUuid}/knowledge/`,
        token,
      );
      const failed = items.filter((i) => i.status === 'failed');
      if (failed.length) throw new Error(`${failed.length} items failed: ${failed[0]!.error}`);
      if (items.length === count && items.every((i) => i.status === 'ready')) return;
      // Listing thousands of items is itself work for the server: poll gently.
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  console.log(`engine: ${databaseUrl ? 'postgresql' : 'pglite'} (through the API on ${base})`);

  // 1. A 200-page PDF.
  const pdf = makePdf(PAGES);
  const pdfApp = await call<{ uuid: string }>('POST', '/api/applications/', token, { name: 'PDF bench' });
  const form = new FormData();
  form.append('items[0].type', 'file');
  form.append('items[0].file', new Blob([new Uint8Array(pdf)]), 'bench.pdf');
  let started = performance.now();
  await call('POST', `/api/applications/${pdfApp.uuid}/knowledge/`, token, form);
  await waitAllReady(pdfApp.uuid, 1);
  let seconds = (performance.now() - started) / 1000;
  const [pdfItem] = await call<Array<{ chunk_count: number }>>(
    'GET',
    `/api/applications/${pdfApp.uuid}/knowledge/`,
    token,
  );
  console.log(
    `pdf: ${PAGES} pages (${(pdf.length / 1024).toFixed(0)} KB, ${pdfItem!.chunk_count} chunks) in ${seconds.toFixed(2)} s → ${(PAGES / seconds).toFixed(1)} pages/s`,
  );

  // 2. 5,000 short texts, 50 per request, two requests in flight.
  const textApp = await call<{ uuid: string }>('POST', '/api/applications/', token, { name: 'Text bench' });
  const batches: FormData[] = [];
  for (let b = 0; b < TEXTS; b += BATCH) {
    const f = new FormData();
    for (let i = 0; i < Math.min(BATCH, TEXTS - b); i++) {
      const n = b + i;
      f.append(`items[${i}].type`, 'text');
      f.append(`items[${i}].title`, `Note ${n}`);
      f.append(
        `items[${i}].value`,
        `Note ${n}. The harbour keeper records tide ${n % 97} and lantern ${n % 31} in the ledger. ` +
          `Mooring ${n % 53} is inspected every ${(n % 9) + 1} days; the pilot boat leaves at ${n % 24}:00.`,
      );
    }
    batches.push(f);
  }
  started = performance.now();
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < batches.length) {
        const body = batches[next++]!;
        await call('POST', `/api/applications/${textApp.uuid}/knowledge/`, token, body);
      }
    }),
  );
  const uploaded = (performance.now() - started) / 1000;
  await waitAllReady(textApp.uuid, TEXTS);
  seconds = (performance.now() - started) / 1000;
  console.log(
    `texts: ${TEXTS} items (uploads done in ${uploaded.toFixed(1)} s) all ready in ${seconds.toFixed(1)} s → ${(TEXTS / seconds).toFixed(1)} items/s`,
  );
  console.log(`server peak RSS: ${(peakRssKb / 1024).toFixed(0)} MB`);
} finally {
  await cleanup();
}
