/**
 * The conversation log at size (issue 20): a server process of its own holding `--conversations`
 * conversations of `--messages-per` messages for one application, and this process as its client.
 * Prints p50/p95 of the log's first page, a filtered page, searches and a deep page, each
 * `--requests` times, then the export of everything: messages/s and the server's memory.
 *
 *   npx tsx bench/conversation-log/run.ts --database-url postgres://postgres@127.0.0.1:5432/postgres
 *   npx tsx bench/conversation-log/run.ts --conversations 10000     # PGlite, 100,000 messages
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '@cairn/db/client';
import { adminQuery, argValue } from '../lib.ts';
import { startServerProcess } from '../server-process.ts';
import { generateConversations } from './generate.ts';

const conversations = Number(argValue('--conversations') ?? 100_000);
const messagesPer = Number(argValue('--messages-per') ?? 10);
const requests = Number(argValue('--requests') ?? 50);
const adminUrl = argValue('--database-url');
const port = 4300 + (process.pid % 500);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-log-'));
let databaseUrl: string | undefined;
if (adminUrl) {
  const name = `cairn_bench_log_${process.pid}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
}
const engine = databaseUrl ? 'PostgreSQL' : 'PGlite';

async function cleanUp() {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (adminUrl && databaseUrl)
    await adminQuery(
      adminUrl,
      `DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`,
    );
}

let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
try {
  // 1. An owner and an application, made through the API.
  server = await startServerProcess('log', port, { storage: { dataDir, databaseUrl } });
  const token = await server.signUp();
  const app = await server.call<{ uuid: string }>('POST', '/api/applications/', token, {
    name: 'Lighthouse',
  });
  await server.stop();

  // 2. The conversations, written straight into its database while the server is stopped.
  const started = Date.now();
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir });
  const [row] = (
    await database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [app.uuid])
  ).rows;
  await generateConversations(database, row!.id, conversations, messagesPer);
  const [counts] = (
    await database.query<{ rooms: number; messages: number }>(
      'SELECT (SELECT count(*) FROM chatrooms)::int AS rooms, (SELECT count(*) FROM messages)::int AS messages',
    )
  ).rows;
  await database.close();
  console.log(
    `${engine}: ${counts!.rooms.toLocaleString('en')} conversations, ${counts!.messages.toLocaleString('en')} messages, generated in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );

  // 3. The same server again, on that data; this process is its client.
  server = await startServerProcess('log', port, { storage: { dataDir, databaseUrl } });
  const { base, pid } = server;
  const log = `/api/applications/${app.uuid}/conversations/`;
  const get = async (query: string) => {
    const res = await fetch(`${base}${log}?${query}`, { headers: { authorization: `Token ${token}` } });
    if (!res.ok) throw new Error(`${query} → ${res.status}: ${await res.text()}`);
    return (await res.json()) as { results: unknown[]; next_cursor: string | null };
  };
  // A cursor deep into the log: 20 pages of 100 in (or the last page there is).
  let deep = '';
  for (let i = 0; i < 20; i++) {
    const next = (await get(`limit=100${deep && `&cursor=${deep}`}`)).next_cursor;
    if (!next) break;
    deep = next;
  }

  const cases: [string, string][] = [
    ['first page', 'limit=50'],
    ['filtered: source + rating', 'source=widget&source=api&rating=down'],
    ['filtered: not covered, 30 days', `not_covered=true&from=${daysAgo(30)}`],
    ['filtered: status waiting', 'status=waiting'],
    ['search: common word', 'q=tickets'],
    ['search: rare word', 'q=whale'],
    ['search: phrase + source', 'q=%22opening%20hours%22&source=widget'],
    ['a page 2,000 rows in (cursor)', `limit=50&cursor=${deep}`],
  ];
  console.log(`\n${engine}, ${requests} requests each, one at a time (ms)`);
  console.log('case                              p50     p95    rows');
  for (const [name, query] of cases) {
    await get(query); // warm
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      rows = (await get(query)).results.length;
      times.push(performance.now() - t0);
    }
    console.log(
      `${name.padEnd(32)} ${percentile(times, 50).toFixed(1).padStart(6)} ${percentile(times, 95).toFixed(1).padStart(7)} ${String(rows).padStart(7)}`,
    );
  }

  // 4. The export of everything, read as fast as this client can; the server's RSS sampled meanwhile.
  const rssBefore = rssMb(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb(pid));
  }, 50);
  const t0 = performance.now();
  const res = await fetch(`${base}${log}export/?format=csv`, {
    headers: { authorization: `Token ${token}` },
  });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  // One line a message (the generated texts have no line breaks) and the header.
  if (lines !== counts!.messages + 1)
    console.log(`the export has ${lines} lines, not ${counts!.messages + 1}`);
  console.log(
    `\nexport CSV: ${counts!.messages.toLocaleString('en')} messages (${(bytes / 1e6).toFixed(0)} MB) in ${seconds.toFixed(1)} s = ${Math.round(counts!.messages / seconds).toLocaleString('en')} messages/s`,
  );
  console.log(
    `server RSS: ${rssBefore.toFixed(0)} MB before, ${rssPeak.toFixed(0)} MB peak during the export, ${rssMb(pid).toFixed(0)} MB after`,
  );
} finally {
  await server?.stop();
  await cleanUp();
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}
