/**
 * The website widget's server side beside the owner's chat, in one run, with 10k chunks of knowledge
 * and a local OpenAI-compatible model server that streams at once:
 *  1. one visitor, back to back, as the client waits: a visitor's `POST /api/widget/v1/messages/`
 *     sent → the first delta of its answer received on the visitor's event stream, alternated with
 *     the owner's `send-message` sent → first delta received on the owner's socket (the reference
 *     path), their p50 gap, and the server's own part of each (arrival → first delta written);
 *  2. 200 visitors at once, each with its own token and event stream, asking MESSAGES questions in
 *     one conversation: every message and every answer must be stored and every answer must reach
 *     its visitor's stream complete ("no message lost"); prints the visitor-side time to the first
 *     delta and the wall time.
 * The server, the model server and these clients each run in a process of their own.
 *
 *   npx tsx bench/chat/widget.ts [--data-dir DIR] [--database-url postgres://…] [--rounds 50]
 *     [--chunks 10000] [--visitors 200] [--messages 3]
 */
import WebSocket from 'ws';
import { startServerChild } from './server-handle.ts';
import { flag, percentile } from './setup.ts';

const ROUNDS = Number(flag('--rounds') ?? 50);
const CHUNKS = Number(flag('--chunks') ?? 10_000);
const VISITORS = Number(flag('--visitors') ?? 200);
const MESSAGES = Number(flag('--messages') ?? 3);
const ORIGIN = 'https://shop.example.com';

const server = await startServerChild({
  label: 'widget',
  chunks: CHUNKS,
  dataDir: flag('--data-dir'),
  databaseUrl: flag('--database-url') ?? process.env.DATABASE_URL,
});
const { owner, app, claims } = server;
const ownerAuth = { authorization: `Token ${owner.token}`, 'content-type': 'application/json' };

await fetch(`${server.url}/api/applications/${app.uuid}/widget/`, {
  method: 'PATCH',
  headers: ownerAuth,
  body: JSON.stringify({
    enabled: true,
    allowed_origins: [ORIGIN],
    limits: {
      visitor_messages_per_hour: 10_000,
      visitor_messages_per_day: 100_000,
      ip_messages_per_hour: 100_000,
      ip_messages_per_day: 1_000_000,
    },
  }),
});

async function visitorToken(): Promise<string> {
  const html = await (
    await fetch(`${server.url}/embed/v1/${app.uuid}?origin=${encodeURIComponent(ORIGIN)}`)
  ).text();
  const boot = /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
  if (!boot) throw new Error('the embed page minted no token');
  return (JSON.parse(boot) as { token: string }).token;
}

type Event = {
  kind: string;
  message_uuid?: string;
  message?: { uuid: string; status: string; text: string };
};

/** A visitor: their event stream, read as the iframe reads it, and their questions. */
async function openVisitor() {
  const token = await visitorToken();
  const finals = new Map<string, (text: string) => void>();
  const done = new Map<string, string>();
  const firstDelta = new Map<string, number>();
  const res = await fetch(`${server.url}/api/widget/v1/events/`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`events: ${res.status}`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const reading = (async () => {
    for (;;) {
      const { value, done: ended } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (ended) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const event = JSON.parse(data) as Event;
        if (event.kind === 'delta' && !firstDelta.has(event.message_uuid!)) {
          firstDelta.set(event.message_uuid!, performance.now());
        }
        const message = event.message;
        if (
          event.kind === 'updated' &&
          message &&
          ['complete', 'failed', 'stopped'].includes(message.status)
        ) {
          done.set(message.uuid, message.status);
          finals.get(message.uuid)?.(message.status);
        }
      }
    }
  })();
  let conversation: string | null = null;
  return {
    firstDelta,
    /** Sends one question and waits for its answer's final event; returns [answer uuid, sent at, status]. */
    async ask(text: string, benchId?: string): Promise<{ answer: string; sentAt: number; status: string }> {
      const sentAt = performance.now();
      const res = await fetch(`${server.url}/api/widget/v1/messages/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(benchId && { 'x-bench-id': benchId }),
        },
        body: JSON.stringify({ conversation_uuid: conversation, message: text }),
      });
      if (res.status !== 201) throw new Error(`send: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { conversation: { uuid: string }; answer: { uuid: string } };
      conversation = body.conversation.uuid;
      const answer = body.answer.uuid;
      const status =
        done.get(answer) ?? (await new Promise<string>((resolve) => finals.set(answer, resolve)));
      return { answer, sentAt, status };
    },
    get conversation() {
      return conversation;
    },
    token,
    async close() {
      await reader.cancel().catch(() => {});
      await reading;
    },
  };
}

// The owner's chat, the reference path.
const ownerFinals = new Map<string, () => void>();
const ownerDone = new Set<string>();
const ownerSocket = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws`, {
  headers: { authorization: `Token ${owner.token}` },
});
/** The owner's client clock: when each answer's first delta arrived. */
const ownerFirstDelta = new Map<string, number>();
ownerSocket.on('message', (raw) => {
  const { event, data } = JSON.parse(raw.toString()) as { event: string; data: Event };
  if (event === 'message' && data.kind === 'delta' && !ownerFirstDelta.has(data.message_uuid!))
    ownerFirstDelta.set(data.message_uuid!, performance.now());
  const message = data.message;
  if (event !== 'message' || data.kind !== 'updated' || !message) return;
  if (['complete', 'failed', 'stopped'].includes(message.status)) {
    ownerDone.add(message.uuid);
    ownerFinals.get(message.uuid)?.();
  }
});
await new Promise((resolve) => ownerSocket.once('message', resolve));
let asked = 0;
let seq = 0;
async function askOwner(): Promise<{ id: string; answer: string; sentAt: number }> {
  const id = `chat-${seq++}`;
  const sentAt = performance.now();
  const res = await fetch(`${server.url}/api/applications/${app.uuid}/chatrooms/send-message/`, {
    method: 'POST',
    headers: { ...ownerAuth, 'x-bench-id': id },
    body: JSON.stringify({
      chatroom_identifier: 'new_chat',
      message: claims[asked++ % claims.length],
      sender_identifier: `reg_${owner.id}`,
    }),
  });
  const answer = ((await res.json()) as { answer: { uuid: string } }).answer.uuid;
  if (!ownerDone.has(answer)) await new Promise<void>((resolve) => ownerFinals.set(answer, resolve));
  return { id, answer, sentAt };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
function line(label: string, values: number[]) {
  const s = sorted(values);
  return `${label}: n=${s.length} p50=${percentile(s, 50).toFixed(1)} ms p90=${percentile(s, 90).toFixed(1)} ms p99=${percentile(s, 99).toFixed(1)} ms`;
}

console.log(
  `database=${server.databaseKind} chunks=${server.chunks} model=openai-compatible (local, streams at once); clients in their own process`,
);

// 1. One visitor, alternating with the owner's chat.
const one = await openVisitor();
for (let i = 0; i < 10; i++) {
  await one.ask(claims[asked++ % claims.length]!);
  await askOwner();
}
type Asked = { id: string; answer: string; sentAt: number };
const widgetIds: Asked[] = [];
const chatIds: Asked[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const id = `widget-${seq++}`;
  const { answer, sentAt } = await one.ask(claims[asked++ % claims.length]!, id);
  widgetIds.push({ id, answer, sentAt });
  chatIds.push(await askOwner());
}
await one.close();
const timings = await server.timings();
const serverTimes = (ids: Asked[]) =>
  ids.flatMap(({ id, answer }) =>
    timings.firstDelta[answer] === undefined ? [] : [timings.firstDelta[answer]! - timings.arrival[id]!],
  );
const clientTimes = (ids: Asked[], firstDelta: Map<string, number>) =>
  ids.flatMap(({ answer, sentAt }) => (firstDelta.has(answer) ? [firstDelta.get(answer)! - sentAt] : []));
const widgetClient = clientTimes(widgetIds, one.firstDelta);
const chatClient = clientTimes(chatIds, ownerFirstDelta);
console.log(line('1 visitor  widget client: sent → first delta on its event stream', widgetClient));
console.log(line('1 owner    chat   client: sent → first delta on the socket      ', chatClient));
console.log(
  `gap (widget − chat) p50 ${(percentile(sorted(widgetClient), 50) - percentile(sorted(chatClient), 50)).toFixed(1)} ms (target ≤ 3 ms)`,
);
console.log(line('1 visitor  widget server: arrival → first delta written         ', serverTimes(widgetIds)));
console.log(line('1 owner    chat   server: arrival → first delta written         ', serverTimes(chatIds)));

// 2. Many visitors at once.
const started = performance.now();
const visitors = await Promise.all(Array.from({ length: VISITORS }, () => openVisitor()));
const opened = performance.now();
const results = await Promise.all(
  visitors.map(async (v, n) => {
    const asks = [];
    for (let i = 0; i < MESSAGES; i++) asks.push(await v.ask(claims[(n * MESSAGES + i) % claims.length]!));
    return asks;
  }),
);
const wall = performance.now() - started;
const answers = results.flat();
const firstDeltas = visitors.flatMap((v, n) =>
  results[n]!.flatMap((r) => (v.firstDelta.has(r.answer) ? [v.firstDelta.get(r.answer)! - r.sentAt] : [])),
);
// Every conversation, read back: both messages of every turn stored, every answer complete.
let lost = 0;
let incomplete = answers.filter((a) => a.status !== 'complete').length;
for (const v of visitors) {
  const res = await fetch(`${server.url}/api/widget/v1/conversations/${v.conversation}/`, {
    headers: { authorization: `Bearer ${v.token}` },
  });
  const body = (await res.json()) as { messages: Array<{ role: string; status: string }> };
  lost += 2 * MESSAGES - body.messages.length;
  incomplete += body.messages.filter((m) => m.role === 'assistant' && m.status !== 'complete').length;
}
await Promise.all(visitors.map((v) => v.close()));
console.log(
  `${VISITORS} visitors × ${MESSAGES} questions: streams opened in ${(opened - started).toFixed(0)} ms, all answered in ${(wall / 1000).toFixed(1)} s; ` +
    `messages lost ${lost}, answers not complete ${incomplete}, answers without a streamed delta ${answers.length - firstDeltas.length}`,
);
console.log(line(`${VISITORS} visitors  visitor-side send → first delta`, firstDeltas));
ownerSocket.close();
await server.close();
