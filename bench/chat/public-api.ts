/**
 * The public API beside the chat path, in one run, as the client waits: from sending
 * `POST /api/v1/chat/completions` (stream: true) to receiving its first chunk with answer text, and
 * from sending `send-message` to receiving the answer's first delta on the owner's socket (both on
 * this client's clock), with the server's own part beside each (arrival → first SSE write; arrival
 * → first delta written); 10k chunks of knowledge and a local OpenAI-compatible server that streams
 * at once; at 1 and at 50 concurrent clients (back to back). Then requests/s of non-streaming
 * completions answered by the built-in models. The server, the model server and these clients each
 * run in a process of their own.
 *
 *   npx tsx bench/chat/public-api.ts [--data-dir DIR (kept: a second run skips indexing)]
 *     [--database-url postgres://…] [--rounds 100] [--chunks 10000] [--seconds 10]
 */
import { BUILTIN_EMBEDDING_MODEL, BUILTIN_TEXT_MODEL } from '@cairn/contracts/models';
import WebSocket from 'ws';
import { answerSplit } from './answer-split.ts';
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
/** Client clocks: when each request was sent, and when its first answer text arrived (bench id / answer uuid). */
const sentAt = new Map<string, number>();
const firstTextAt = new Map<string, number>();
ownerSocket.on('message', (raw) => {
  const { event, data } = JSON.parse(raw.toString()) as {
    event: string;
    data: {
      kind: string;
      offset?: number;
      message_uuid?: string;
      message?: { uuid: string; status: string };
    };
  };
  if (event === 'message' && data.kind === 'delta' && data.offset === 0)
    firstTextAt.set(data.message_uuid!, performance.now());
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
/** Streamed completions: bench id → the answer's uuid (from the chunks' `chatcmpl-…` id), for its steps. */
const apiAnswers = new Map<string, string>();
const apiIds: string[][] = [];
const chatIds: string[][] = [];

/** One public-API completion, read to its end; a streamed one notes when its first text arrived. */
async function askApi(stream = true): Promise<string> {
  const id = `api-${seq++}`;
  sentAt.set(id, performance.now());
  const res = await fetch(`${server.url}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-bench-id': id },
    body: JSON.stringify({
      model: app.uuid,
      stream,
      messages: [{ role: 'user', content: claims[asked++ % claims.length] }],
    }),
  });
  let text = '';
  const decoder = new TextDecoder();
  for await (const bytes of res.body!) {
    text += decoder.decode(bytes as Uint8Array, { stream: true });
    if (stream && !firstTextAt.has(id) && /"delta":\{[^}]*"content":"[^"]/.test(text)) {
      firstTextAt.set(id, performance.now());
      const hex = /"id":"chatcmpl-([0-9a-f]{32})"/.exec(text)?.[1];
      if (hex) apiAnswers.set(id, hex.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'));
    }
  }
  if (res.status !== 200 || (stream && !text.trimEnd().endsWith('data: [DONE]'))) {
    failures.push(`${res.status} ${text.slice(0, 200)}`);
  }
  return id;
}

/** One chat question through send-message, waited for to its final event. */
async function askChat(): Promise<string> {
  const id = `chat-${seq++}`;
  sentAt.set(id, performance.now());
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
/** Sent → first answer text received, on this client's clock (`answerOf`: where the text is keyed). */
const clientTimes = (ids: string[], answerOf: (id: string) => string = (id) => id) =>
  ids.flatMap((id) => {
    const first = firstTextAt.get(answerOf(id));
    return first === undefined ? [] : [first - sentAt.get(id)!];
  });
const chatAnswer = (id: string) => chatAnswers.get(id)!;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
function line(label: string, values: number[]) {
  const s = sorted(values);
  return `${label}: n=${s.length} p50=${percentile(s, 50).toFixed(1)} ms p90=${percentile(s, 90).toFixed(1)} ms p99=${percentile(s, 99).toFixed(1)} ms`;
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
for (const [n, label] of [
  [0, '1 client  '],
  [1, '50 clients'],
] as const) {
  const api = clientTimes(apiIds[n]!);
  const chat = clientTimes(chatIds[n]!, chatAnswer);
  console.log(line(`${label}  API  client: sent → first text chunk     `, api));
  console.log(line(`${label}  chat client: sent → first delta          `, chat));
  console.log(
    `${label}  gap (API − chat) p50 ${(percentile(sorted(api), 50) - percentile(sorted(chat), 50)).toFixed(1)} ms (target ≤ 3 ms)`,
  );
  if (n === 0) {
    // The two paths take turns here: each completion and the chat question after it saw the same
    // moment of the machine, so their difference is the gap with the load's drift taken out.
    const paired = apiIds[0]!.flatMap((id, i) => {
      const a = clientTimes([id])[0];
      const c = clientTimes([chatIds[0]![i]!], chatAnswer)[0];
      return a === undefined || c === undefined ? [] : [a - c];
    });
    console.log(
      `${label}  gap, each completion − the chat question after it: p50 ${percentile(sorted(paired), 50).toFixed(1)} ms`,
    );
  }
  console.log(line(`${label}  API  server: arrival → first SSE write   `, apiTimes(timings, apiIds[n]!)));
  console.log(line(`${label}  chat server: arrival → first delta write `, chatTimes(timings, chatIds[n]!)));
  const apiSplit = apiIds[n]!.flatMap((id) => {
    const answer = apiAnswers.get(id);
    if (!answer) return [];
    const written = timings.firstWrite[id];
    return [{ id, answer, sent: sentAt.get(id)!, written, received: firstTextAt.get(id) }];
  });
  const chatSplit = chatIds[n]!.map((id) => {
    const answer = chatAnswer(id);
    return {
      id,
      answer,
      sent: sentAt.get(id)!,
      written: timings.firstDelta[answer],
      received: firstTextAt.get(answer),
    };
  });
  console.log(`${label}  API  split, p50 ms: ${answerSplit(timings, apiSplit)}`);
  console.log(`${label}  chat split, p50 ms: ${answerSplit(timings, chatSplit)}`);
}

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
