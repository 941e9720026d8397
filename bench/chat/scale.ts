/**
 * Cairn at scale on PostgreSQL, as its README runs it: `--api` processes with ROLE=api behind a
 * round-robin proxy this bench starts, one ROLE=worker process writing the answers, 10k chunks of
 * knowledge and a local OpenAI-compatible model server that streams at once (each a process of its
 * own, as are these clients). VISITORS website-widget visitors arrive at once, each opening their
 * event stream and asking MESSAGES questions with a 0–3 s pause before each. Printed: what a
 * visitor waits (question sent → first delta received on their stream, on this client's clock),
 * and whether every question and answer was stored and every answer completed ("no message
 * lost"); the same load through one API process first, and the scaling factor between the two.
 *
 *   npx tsx bench/chat/scale.ts --database-url postgres://… [--api 2] [--visitors 500]
 *     [--messages 3] [--chunks 10000] [--data-dir DIR (kept with the same database: no re-indexing)]
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type ServerHandle, startServerChild } from './server-handle.ts';
import { flag, percentile } from './setup.ts';
import { enableWidget, openVisitor } from './widget-client.ts';

const databaseUrl = flag('--database-url') ?? process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('scale.ts runs on PostgreSQL: pass --database-url postgres://…');
const API = Number(flag('--api') ?? 2);
const VISITORS = Number(flag('--visitors') ?? 500);
const MESSAGES = Number(flag('--messages') ?? 3);
const CHUNKS = Number(flag('--chunks') ?? 10_000);
// One deployment: its processes share the data dir (SECRET_KEY, stored files), as they would share a volume.
const dataDir = flag('--data-dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-scale-'));

const first = await startServerChild({ label: 'scale', chunks: CHUNKS, dataDir, databaseUrl, role: 'api' });
const { owner, app, claims } = first;
const seeded = { owner, app };
const start = (role: 'api' | 'worker') =>
  startServerChild({ label: 'scale', chunks: CHUNKS, dataDir, databaseUrl, role, seeded });
const apis: ServerHandle[] = [
  first,
  ...(await Promise.all(Array.from({ length: API - 1 }, () => start('api')))),
];
const worker = await start('worker');
await enableWidget(first.url, app.uuid, owner.token);

/** A TCP proxy handing each new connection to the next backend in turn. */
async function roundRobin(backends: string[]) {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const { hostname, port } = new URL(backends[next++ % backends.length]!);
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let asked = 0;
/** The visitors' load through `url`: their waits, and what the database kept. */
async function visitorsThrough(url: string) {
  const started = performance.now();
  const visitors = await Promise.all(
    Array.from({ length: VISITORS }, async () => {
      const visitor = await openVisitor(url, app.uuid);
      const asks: Array<{ answer: string; sentAt: number; status: string }> = [];
      for (let i = 0; i < MESSAGES; i++) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3000));
        asks.push(await visitor.ask(claims[asked++ % claims.length]!));
      }
      const audit = await visitor.audit(MESSAGES);
      await visitor.close();
      const arrived = asks.filter((a) => visitor.firstDelta.has(a.answer));
      return {
        waits: arrived.map((a) => visitor.firstDelta.get(a.answer)! - a.sentAt),
        lost: audit.lost,
        incomplete: audit.incomplete + asks.filter((a) => a.status !== 'complete').length,
      };
    }),
  );
  const waits = visitors.flatMap((v) => v.waits).sort((a, b) => a - b);
  return {
    waits,
    seconds: (performance.now() - started) / 1000,
    lost: visitors.reduce((n, v) => n + v.lost, 0),
    incomplete: visitors.reduce((n, v) => n + v.incomplete, 0),
    withoutDelta: VISITORS * MESSAGES - waits.length,
  };
}

function report(label: string, r: Awaited<ReturnType<typeof visitorsThrough>>) {
  const p = (q: number) => percentile(r.waits, q).toFixed(1);
  console.log(
    `${label}: ${VISITORS} visitors × ${MESSAGES} questions in ${r.seconds.toFixed(1)} s; visitor sent → first delta ` +
      `n=${r.waits.length} p50=${p(50)} ms p90=${p(90)} ms p99=${p(99)} ms max=${r.waits.at(-1)?.toFixed(1)} ms; ` +
      `messages lost ${r.lost}, answers not complete ${r.incomplete}, answers without a streamed delta ${r.withoutDelta}`,
  );
}

console.log(
  `database=${first.databaseKind} chunks=${first.chunks} model=openai-compatible (local, streams at once); ` +
    `1 ROLE=worker process; clients in their own process`,
);
const single = await roundRobin([first.url]);
const one = await visitorsThrough(single.url);
await single.close();
report('1 API process  ', one);
const balanced = await roundRobin(apis.map((a) => a.url));
const many = await visitorsThrough(balanced.url);
await balanced.close();
report(`${API} API processes`, many);
console.log(
  `scaling: p99 ${percentile(one.waits, 99).toFixed(1)} → ${percentile(many.waits, 99).toFixed(1)} ms ` +
    `(× ${(percentile(one.waits, 99) / percentile(many.waits, 99)).toFixed(2)}); target p99 ≤ 250 ms with nothing lost`,
);
await Promise.all([...apis, worker].map((s) => s.close()));
