/**
 * The MCP server and the Responses API beside the paths they reuse, in one run, with ≥10k chunks
 * of SciFact knowledge (the server in a process of its own, `bench/chat/server-child.ts`; its own
 * clocks, from a request's arrival):
 *
 * - to the end of the answer of an MCP `tools/call` of `search_knowledge` (a stateless POST to
 *   /api/v1/mcp), beside `POST …/knowledge/search/` with the same query and top_k, at 1 client
 *   (the two alternate) and at 20 concurrent clients (each alternating);
 * - to the first `response.output_text.delta` written by `POST /api/v1/responses` (stream), beside
 *   the first chunk of `POST /api/v1/chat/completions` (stream), alternating, with a local
 *   OpenAI-compatible model server that streams at once.
 *
 * Then the server's CPU time per request of each kind (its `process.cpuUsage()`, `--rounds` requests
 * of one kind in a row, 1 client), which the machine's load disturbs less than the clocks; with
 * `--profile DIR`, a CPU profile of each of those phases (`DIR/<kind>.cpuprofile`) and its top
 * functions by self time.
 *
 *   npx tsx bench/mcp/run.ts [--data-dir DIR (kept: a second run skips indexing)]
 *     [--database-url postgres://…] [--rounds 100] [--chunks 10000] [--profile DIR]
 */
import path from 'node:path';
import { type ServerTimings, startServerChild } from '../chat/server-handle.ts';
import { flag, percentile } from '../chat/setup.ts';

const ROUNDS = Number(flag('--rounds') ?? 100);
const CHUNKS = Number(flag('--chunks') ?? 10_000);
const CLIENTS = 20;

const server = await startServerChild({
  label: 'mcp',
  chunks: CHUNKS,
  dataDir: flag('--data-dir'),
  databaseUrl: flag('--database-url') ?? process.env.DATABASE_URL,
});
const { owner, app, claims } = server;

async function send(authorization: string, pathname: string, json: unknown, benchId: string) {
  const res = await fetch(server.url + pathname, {
    method: 'POST',
    headers: {
      authorization,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-bench-id': benchId,
    },
    body: JSON.stringify(json),
  });
  return { status: res.status, text: await res.text() };
}

const created = await fetch(`${server.url}/api/applications/${app.uuid}/api-keys/`, {
  method: 'POST',
  headers: { authorization: `Token ${owner.token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench', requests_per_minute: 10_000 }),
});
const key = ((await created.json()) as { key: string }).key;

let seq = 0;
let asked = 0;
const failures: string[] = [];
const check = (ok: boolean, what: string, res: { status: number; text: string }) => {
  if (!ok) failures.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
};

async function mcpSearch(query: string) {
  const id = `mcp-${seq++}`;
  const res = await send(
    `Bearer ${key}`,
    '/api/v1/mcp',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_knowledge', arguments: { query, top_k: 5 } },
    },
    id,
  );
  check(res.status === 200 && res.text.includes('"passages"'), 'mcp search', res);
  return id;
}
async function restSearch(query: string) {
  const id = `search-${seq++}`;
  const res = await send(
    `Token ${owner.token}`,
    `/api/applications/${app.uuid}/knowledge/search/`,
    { query, top_k: 5 },
    id,
  );
  check(res.status === 200, 'knowledge search', res);
  return id;
}
async function responsesStream(question: string) {
  const id = `responses-${seq++}`;
  const res = await send(
    `Bearer ${key}`,
    '/api/v1/responses',
    { model: app.uuid, input: question, stream: true },
    id,
  );
  check(res.status === 200 && res.text.includes('event: response.completed'), 'responses', res);
  return id;
}
async function completionStream(question: string) {
  const id = `completion-${seq++}`;
  const res = await send(
    `Bearer ${key}`,
    '/api/v1/chat/completions',
    { model: app.uuid, stream: true, messages: [{ role: 'user', content: question }] },
    id,
  );
  check(res.status === 200 && res.text.trimEnd().endsWith('data: [DONE]'), 'chat completions', res);
  return id;
}

/**
 * `rounds` alternations of two requests by each of `clients` clients; the ids of each kind. Each
 * round swaps which goes first (a b, b a, …): what one request leaves running after its answer
 * (an answer's bookkeeping, the key's last-use write) falls on both kinds alike, not always on `a`.
 */
async function alternate(
  clients: number,
  rounds: number,
  a: (q: string) => Promise<string>,
  b: (q: string) => Promise<string>,
) {
  const ids = { a: [] as string[], b: [] as string[] };
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < rounds; i++) {
        const query = claims[asked++ % claims.length]!;
        if (i % 2 === 0) {
          ids.a.push(await a(query));
          ids.b.push(await b(query));
        } else {
          ids.b.push(await b(query));
          ids.a.push(await a(query));
        }
      }
    }),
  );
  return ids;
}

const between = (t: ServerTimings, ids: string[], until: 'ended' | 'firstWrite') =>
  ids.flatMap((id) => (t[until][id] === undefined ? [] : [t[until][id]! - t.arrival[id]!]));
function line(label: string, values: number[]) {
  const sorted = [...values].sort((x, y) => x - y);
  return `${label}: n=${sorted.length} p50=${percentile(sorted, 50).toFixed(2)} ms p99=${percentile(sorted, 99).toFixed(2)} ms`;
}

console.log(
  `database=${server.databaseKind} chunks=${server.chunks} model=openai-compatible (local, streams at once); clients in their own process`,
);
// Warm up both paths (and the in-process BM25 copy).
await alternate(1, 10, mcpSearch, restSearch);
await alternate(1, 10, responsesStream, completionStream);

const one = await alternate(1, ROUNDS, mcpSearch, restSearch);
const many = await alternate(CLIENTS, Math.max(5, Math.round(ROUNDS / 4)), mcpSearch, restSearch);
const first = await alternate(1, ROUNDS, responsesStream, completionStream);

const t = await server.timings();
console.log(line(' 1 client   MCP tools/call search_knowledge → answer', between(t, one.a, 'ended')));
console.log(line(' 1 client   POST …/knowledge/search/       → answer', between(t, one.b, 'ended')));
console.log(
  line(`${CLIENTS} clients  MCP tools/call search_knowledge → answer`, between(t, many.a, 'ended')),
);
console.log(line(`${CLIENTS} clients  POST …/knowledge/search/       → answer`, between(t, many.b, 'ended')));
console.log(line(' 1 client   POST /responses → first output_text.delta', between(t, first.a, 'firstWrite')));
console.log(line(' 1 client   POST /chat/completions → first chunk    ', between(t, first.b, 'firstWrite')));
/** CPU time of the server per request of one kind (`rounds` in a row), profiled when asked. */
async function cpuPerRequest(label: string, request: (q: string) => Promise<string>) {
  const phase = async () => {
    const before = await server.cpuMs();
    for (let i = 0; i < ROUNDS; i++) await request(claims[asked++ % claims.length]!);
    return ((await server.cpuMs()) - before) / ROUNDS;
  };
  const dir = flag('--profile');
  if (!dir) return console.log(`CPU per request  ${label}: ${(await phase()).toFixed(3)} ms`);
  const { result, top } = await server.profile(phase, path.join(dir, `${label.split(' ')[0]}.cpuprofile`));
  console.log(`CPU per request  ${label}: ${result.toFixed(3)} ms (profiled)\n  ${top.join('\n  ')}`);
}
await cpuPerRequest('mcp (tools/call search_knowledge)', mcpSearch);
await cpuPerRequest('search (POST …/knowledge/search/)', restSearch);
await cpuPerRequest('responses (stream)', responsesStream);
await cpuPerRequest('completions (stream)', completionStream);

console.log(`failed requests: ${failures.length}${failures.length ? ` (first: ${failures[0]})` : ''}`);
await server.close();
