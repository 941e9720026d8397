/**
 * The public API beside the chat path, in one run: the server's own time from a request's arrival
 * to the first SSE chunk written by `POST /api/v1/chat/completions` (stream: true), and from
 * `send-message` to the first delta written on the owner's socket, with 10k chunks of knowledge and
 * a local OpenAI-compatible server that streams at once; at 1 and at 50 concurrent clients (back to
 * back). Then requests/s of non-streaming completions answered by the built-in models. The server
 * runs in a process of its own (server-child.ts).
 *
 *   npx tsx bench/chat/public-api.ts [--data-dir DIR (kept: a second run skips indexing)]
 *     [--database-url postgres://…] [--rounds 100] [--chunks 10000] [--seconds 10]
 */
import { BUILTIN_EMBEDDING_MODEL, BUILTIN_TEXT_MODEL } from '@cairn/contracts/models';
import WebSocket from 'ws';
import { type ServerTimings, startServerChild } from './server-handle.ts';
import { flag, percentile } from './setup.ts';

const ROUNDS = Number(flag('--rounds') ?? 100);
const CHUNKS = Number(flag('--chunks') ?? 10_000);
const SECONDS = Number(flag('--seconds') ?? 10);

const server = await startServerChild({
  label: 'public-api',
  chunks: CHUNKS,
  dataDir: flag('--data-dir'),
  databaseUrl: flag('--database-url') ?? process.env.DATABASE_URL,
});
const { owner, app, claims } = server;

async function send(
  method: string,
  authorization: string,
  pathname: string,
  json: unknown,
  benchId?: string,
) {
  const res = await fetch(server.url + pathname, {
    method,
    headers: { authorization, 'content-type': 'application/json', ...(benchId && { 'x-bench-id': benchId }) },
    body: JSON.stringify(json),
  });
  return { status: res.status, text: await res.text() };
}

const created = await send('POST', `Token ${owner.token}`, `/api/applications/${app.uuid}/api-keys/`, {
  name: 'bench',
  requests_per_minute: 10_000,
});
const key = (JSON.parse(created.text) as { key: string }).key;

const finals = new Map<string, () => void>();
const done = new Set<string>();
const ownerSocket = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws`, {
  headers: { authorization: `Token ${owner.token}` },
});
ownerSocket.on('message', (raw) => {
  const { event, data } = JSON.parse(raw.toString()) as {
    event: string;
    data: { kind: string; message?: { uuid: string; status: string } };
  };
  if (event !== 'message' || data.kind !== 'updated' || !data.message) return;
  if (['complete', 'failed', 'stopped'].includes(data.message.status)) {
    done.add(data.message.uuid);
    finals.get(data.message.uuid)?.();
  }
});
await new Promise((resolve) => ownerSocket.once('message', resolve));

let asked = 0;
let seq = 0;
const failures: string[] = [];
/** Chat questions: bench id → the answer's uuid (the server clocks its first delta by uuid). */
const chatAnswers = new Map<string, string>();
const apiIds: string[][] = [];
const chatIds: string[][] = [];

/** One public-API completion, read to its end. */
async function askApi(stream = true): Promise<string> {
  const id = `api-${seq++}`;
  const res = await send(
    'POST',
    `Bearer ${key}`,
    '/api/v1/chat/completions',
    { model: app.uuid, stream, messages: [{ role: 'user', content: claims[asked++ % claims.length] }] },
    id,
  );
  if (res.status !== 200 || (stream && !res.text.trimEnd().endsWith('data: [DONE]'))) {
    failures.push(`${res.status} ${res.text.slice(0, 200)}`);
  }
  return id;
}

/** One chat question through send-message, waited for to its final event. */
async function askChat(): Promise<string> {
  const id = `chat-${seq++}`;
  const res = await send(
    'POST',
    `Token ${owner.token}`,
    `/api/applications/${app.uuid}/chatrooms/send-message/`,
    {
      chatroom_identifier: 'new_chat',
      message: claims[asked++ % claims.length],
      sender_identifier: `reg_${owner.id}`,
      metadata: { source: 'web' },
      send_to_user: false,
    },
    id,
  );
  const answer = (JSON.parse(res.text) as { answer: { uuid: string } }).answer.uuid;
  chatAnswers.set(id, answer);
  if (!done.has(answer)) await new Promise<void>((resolve) => finals.set(answer, resolve));
  return id;
}

const apiTimes = (t: ServerTimings, ids: string[]) =>
  ids.flatMap((id) => (t.firstWrite[id] === undefined ? [] : [t.firstWrite[id]! - t.arrival[id]!]));
const chatTimes = (t: ServerTimings, ids: string[]) =>
  ids.flatMap((id) => {
    const first = t.firstDelta[chatAnswers.get(id)!];
    return first === undefined ? [] : [first - t.arrival[id]!];
  });
function line(label: string, values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return `${label}: n=${sorted.length} p50=${percentile(sorted, 50).toFixed(1)} ms p90=${percentile(sorted, 90).toFixed(1)} ms p99=${percentile(sorted, 99).toFixed(1)} ms`;
}

console.log(
  `database=${server.databaseKind} chunks=${server.chunks} model=openai-compatible (local, streams at once) embedding=built-in (lexical); clients in their own process`,
);
for (let i = 0; i < 10; i++) {
  await askApi();
  await askChat();
}

// 1 client: the two paths alternate, so both see the same machine.
apiIds.push([]);
chatIds.push([]);
for (let i = 0; i < ROUNDS; i++) {
  apiIds[0]!.push(await askApi());
  chatIds[0]!.push(await askChat());
}
// 50 clients back to back, first on one path then on the other.
const perClient = Math.max(2, Math.round((ROUNDS * 4) / 50));
const burst = async (ask: () => Promise<string>) =>
  (
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        const ids: string[] = [];
        for (let i = 0; i < perClient; i++) ids.push(await ask());
        return ids;
      }),
    )
  ).flat();
apiIds.push(await burst(() => askApi()));
chatIds.push(await burst(askChat));

const timings = await server.timings();
console.log(line('1 client    API  arrival → first SSE chunk ', apiTimes(timings, apiIds[0]!)));
console.log(line('1 client    chat send-message → first delta', chatTimes(timings, chatIds[0]!)));
console.log(line('50 clients  API  arrival → first SSE chunk ', apiTimes(timings, apiIds[1]!)));
console.log(line('50 clients  chat send-message → first delta', chatTimes(timings, chatIds[1]!)));

// Non-streaming completions answered by the built-in models (no model server): requests per second.
await send('PATCH', `Token ${owner.token}`, `/api/applications/${app.uuid}/`, {
  llm_models: [BUILTIN_TEXT_MODEL.uuid, BUILTIN_EMBEDDING_MODEL.uuid],
});
for (const concurrency of [1, 8]) {
  let completed = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await askApi(false);
        completed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `non-streaming, built-in models, ${concurrency} client(s): ${completed} answers in ${seconds.toFixed(1)} s → ${(completed / seconds).toFixed(1)} requests/s`,
  );
}
console.log(`failed requests: ${failures.length}${failures.length ? ` (first: ${failures[0]})` : ''}`);
ownerSocket.close();
await server.close();
