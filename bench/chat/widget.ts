/**
 * The website widget's server side beside the owner's chat, in one run, with 10k chunks of knowledge
 * and a local OpenAI-compatible model server that streams at once:
 *  1. one visitor, back to back, as the client waits: a visitor's `POST /api/widget/v1/messages/`
 *     sent → the first delta of its answer received on the visitor's event stream, alternated with
 *     the owner's `send-message` sent → first delta received on the owner's socket (the reference
 *     path), their p50 gap, the server's own part of each (arrival → first delta written), and
 *     each one's wait per step (`answer-split.ts`). The visitor asks in one conversation; the owner starts
 *     a new chat for each question, or with `--owner-continues` asks in one chatroom too (then
 *     both pay a conversation's history);
 *  2. 200 visitors at once, each with its own token and event stream, asking MESSAGES questions in
 *     one conversation: every message and every answer must be stored and every answer must reach
 *     its visitor's stream complete ("no message lost"); prints the visitor-side time to the first
 *     delta and the wall time.
 * The server, the model server and these clients each run in a process of their own.
 *
 *   npx tsx bench/chat/widget.ts [--data-dir DIR] [--database-url postgres://…] [--rounds 50]
 *     [--chunks 10000] [--visitors 200] [--messages 3] [--owner-continues]
 */
import WebSocket from 'ws';
import { answerSplit } from './answer-split.ts';
import { startServerChild } from './server-handle.ts';
import { flag, percentile } from './setup.ts';
import { type ChatEvent, enableWidget, openVisitor } from './widget-client.ts';

const ROUNDS = Number(flag('--rounds') ?? 50);
const CHUNKS = Number(flag('--chunks') ?? 10_000);
const VISITORS = Number(flag('--visitors') ?? 200);
const MESSAGES = Number(flag('--messages') ?? 3);
const OWNER_CONTINUES = process.argv.includes('--owner-continues');

const server = await startServerChild({
  label: 'widget',
  chunks: CHUNKS,
  dataDir: flag('--data-dir'),
  databaseUrl: flag('--database-url') ?? process.env.DATABASE_URL,
});
const { owner, app, claims } = server;
const ownerAuth = { authorization: `Token ${owner.token}`, 'content-type': 'application/json' };

await enableWidget(server.url, app.uuid, owner.token);

// The owner's chat, the reference path.
const ownerFinals = new Map<string, () => void>();
const ownerDone = new Set<string>();
const ownerSocket = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws`, {
  headers: { authorization: `Token ${owner.token}` },
});
/** The owner's client clock: when each answer's first delta arrived. */
const ownerFirstDelta = new Map<string, number>();
ownerSocket.on('message', (raw) => {
  const { event, data } = JSON.parse(raw.toString()) as { event: string; data: ChatEvent };
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
/** With --owner-continues, the owner's questions go on in one chatroom, as the visitor's do. */
let ownerChatroom = 'new_chat';
async function askOwner(): Promise<{ id: string; answer: string; sentAt: number }> {
  const id = `chat-${seq++}`;
  const sentAt = performance.now();
  const res = await fetch(`${server.url}/api/applications/${app.uuid}/chatrooms/send-message/`, {
    method: 'POST',
    headers: { ...ownerAuth, 'x-bench-id': id },
    body: JSON.stringify({
      chatroom_identifier: ownerChatroom,
      message: claims[asked++ % claims.length],
      sender_identifier: `reg_${owner.id}`,
    }),
  });
  const body = (await res.json()) as { chatroom: { uuid: string }; answer: { uuid: string } };
  if (OWNER_CONTINUES) ownerChatroom = body.chatroom.uuid;
  const answer = body.answer.uuid;
  if (!ownerDone.has(answer)) await new Promise<void>((resolve) => ownerFinals.set(answer, resolve));
  return { id, answer, sentAt };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
function line(label: string, values: number[]) {
  const s = sorted(values);
  return `${label}: n=${s.length} p50=${percentile(s, 50).toFixed(1)} ms p90=${percentile(s, 90).toFixed(1)} ms p99=${percentile(s, 99).toFixed(1)} ms`;
}

console.log(
  `database=${server.databaseKind} chunks=${server.chunks} model=openai-compatible (local, streams at once); clients in their own process; ` +
    `owner: ${OWNER_CONTINUES ? 'one chatroom' : 'a new chat per question'}`,
);

// 1. One visitor, alternating with the owner's chat.
const one = await openVisitor(server.url, app.uuid);
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
const split = (ids: Asked[], firstDelta: Map<string, number>) =>
  answerSplit(
    timings,
    ids.map(({ id, answer, sentAt }) => ({
      id,
      answer,
      sent: sentAt,
      written: timings.firstDelta[answer],
      received: firstDelta.get(answer),
    })),
  );
console.log(`1 visitor  widget split, p50 ms: ${split(widgetIds, one.firstDelta)}`);
console.log(`1 owner    chat   split, p50 ms: ${split(chatIds, ownerFirstDelta)}`);

// 2. Many visitors at once.
const cpuBefore = await server.cpuMs();
const started = performance.now();
const visitors = await Promise.all(Array.from({ length: VISITORS }, () => openVisitor(server.url, app.uuid)));
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
const cpuPerAnswer = ((await server.cpuMs()) - cpuBefore) / answers.length;
const firstDeltas = visitors.flatMap((v, n) =>
  results[n]!.flatMap((r) => (v.firstDelta.has(r.answer) ? [v.firstDelta.get(r.answer)! - r.sentAt] : [])),
);
// Every conversation, read back: both messages of every turn stored, every answer complete.
let lost = 0;
let incomplete = answers.filter((a) => a.status !== 'complete').length;
for (const v of visitors) {
  const audit = await v.audit(MESSAGES);
  lost += audit.lost;
  incomplete += audit.incomplete;
}
await Promise.all(visitors.map((v) => v.close()));
console.log(
  `${VISITORS} visitors × ${MESSAGES} questions: streams opened in ${(opened - started).toFixed(0)} ms, all answered in ${(wall / 1000).toFixed(1)} s; ` +
    `server CPU ${cpuPerAnswer.toFixed(1)} ms/answer (streams opened included); messages lost ${lost}, answers not complete ${incomplete}, answers without a streamed delta ${answers.length - firstDeltas.length}`,
);
console.log(line(`${VISITORS} visitors  visitor-side send → first delta`, firstDeltas));
ownerSocket.close();
await server.close();
