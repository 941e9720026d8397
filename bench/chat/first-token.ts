/**
 * Time to first token as a person waits it: from the client sending `POST …/send-message/` to the
 * answer's first delta arriving on the owner's socket (both clocks in this client process), with
 * 10k chunks of knowledge and a local OpenAI-compatible server that streams at once (or `--model
 * builtin`: the built-in answerer). Beside it, the server's own split of the same answers: its
 * arrival → first delta written, and what is left (the request reaching the server and being read,
 * the socket frame reaching the client). At 1 and at 50 concurrent conversations (back to back,
 * then with a 0–3 s pause before each question), with `GET /api/me/` as the floor of one request.
 * The server, the model server and these clients each run in a process of their own. A CPU profile
 * of the server under the paced 50-conversation load is summarised at the end.
 *
 *   npx tsx bench/chat/first-token.ts [--data-dir DIR (kept: a second run skips indexing)]
 *     [--database-url postgres://…] [--rounds 100] [--chunks 10000] [--model provider|builtin]
 */
import os from 'node:os';
import path from 'node:path';
import type { TMessageEvent } from '@cairn/contracts/chat';
import { BUILTIN_EMBEDDING_MODEL, BUILTIN_TEXT_MODEL } from '@cairn/contracts/models';
import WebSocket from 'ws';
import { answerSplit } from './answer-split.ts';
import { type ServerTimings, startServerChild } from './server-handle.ts';
import { flag, percentile } from './setup.ts';

const ROUNDS = Number(flag('--rounds') ?? 100);
const CHUNKS = Number(flag('--chunks') ?? 10_000);
const MODEL = flag('--model') ?? 'provider';

const server = await startServerChild({
  label: 'first-token',
  chunks: CHUNKS,
  dataDir: flag('--data-dir'),
  databaseUrl: flag('--database-url') ?? process.env.DATABASE_URL,
});
const { owner, app, claims } = server;
const send = async (method: string, token: string, pathname: string, json: unknown, benchId?: string) => {
  const res = await fetch(server.url + pathname, {
    method,
    headers: {
      authorization: `Token ${token}`,
      'content-type': 'application/json',
      ...(benchId && { 'x-bench-id': benchId }),
    },
    body: JSON.stringify(json),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status >= 400) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(body)}`);
  return body;
};
if (MODEL === 'builtin') {
  await send('PATCH', owner.token, `/api/applications/${app.uuid}/`, {
    llm_models: [BUILTIN_TEXT_MODEL.uuid, BUILTIN_EMBEDDING_MODEL.uuid],
  });
}

/** Final answers seen on the owner's socket, and who waits for which. */
const finals = new Map<string, () => void>();
const seen = new Set<string>();
const failed: string[] = [];
/** Client clocks: when each question was sent (bench id), when each answer's first delta arrived (uuid). */
const sentAt = new Map<string, number>();
const firstDeltaAt = new Map<string, number>();
const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws`, {
  headers: { authorization: `Token ${owner.token}` },
});
socket.on('message', (raw) => {
  const parsed = JSON.parse(raw.toString()) as { event: string; data: TMessageEvent };
  if (parsed.event === 'message' && parsed.data.kind === 'delta' && parsed.data.offset === 0)
    firstDeltaAt.set(parsed.data.message_uuid, performance.now());
  if (parsed.event !== 'message' || parsed.data.kind !== 'updated') return;
  const m = parsed.data.message;
  if (['complete', 'failed', 'stopped'].includes(m.status)) {
    seen.add(m.uuid);
    if (m.status === 'failed') failed.push(String(m.metadata.error));
    finals.get(m.uuid)?.();
  }
});
await new Promise<void>((resolve, reject) => {
  socket.once('message', () => resolve());
  socket.once('error', reject);
});

let claimAt = 0;
let seq = 0;
/** bench id of each question → its answer's uuid, matched with the server's clocks at the end. */
const asked = new Map<string, string>();

/**
 * Asks `rounds` questions in sequence in one conversation; returns the bench ids. `pauseMs`: the
 * range of the pause before each question — drawn anew each time, so conversations do not ask in
 * lockstep (none: back to back).
 */
async function converse(token: string, rounds: number, pauseMs?: [number, number]): Promise<string[]> {
  const ids: string[] = [];
  let chatroom = 'new_chat';
  for (let i = 0; i < rounds; i++) {
    if (pauseMs)
      await new Promise((r) => setTimeout(r, pauseMs[0] + Math.random() * (pauseMs[1] - pauseMs[0])));
    const id = `q${seq++}`;
    sentAt.set(id, performance.now());
    const res = (await send(
      'POST',
      token,
      `/api/applications/${app.uuid}/chatrooms/send-message/`,
      {
        chatroom_identifier: chatroom,
        message: claims[claimAt++ % claims.length],
        sender_identifier: `reg_${owner.id}`,
        metadata: { source: 'web' },
        send_to_user: false,
      },
      id,
    )) as { chatroom: { uuid: string }; answer: { uuid: string } };
    chatroom = res.chatroom.uuid;
    asked.set(id, res.answer.uuid);
    ids.push(id);
    if (!seen.has(res.answer.uuid))
      await new Promise<void>((resolve) => finals.set(res.answer.uuid, resolve));
  }
  return ids;
}

/** What the client waited: question sent → first delta received. */
function clientTimes(ids: string[]): number[] {
  return ids.flatMap((id) => {
    const first = firstDeltaAt.get(asked.get(id)!);
    return first === undefined ? [] : [first - sentAt.get(id)!];
  });
}

/** The server's part of it: the request's arrival → the first delta written on its socket. */
function serverTimes(timings: ServerTimings, ids: string[]): number[] {
  return ids.flatMap((id) => {
    const first = timings.firstDelta[asked.get(id)!];
    const arrived = timings.arrival[id];
    return first === undefined || arrived === undefined ? [] : [first - arrived];
  });
}

/** Each answer's split (`answer-split.ts`): the first delta written on a socket and received. */
const split = (timings: ServerTimings, ids: string[]) =>
  answerSplit(
    timings,
    ids.map((id) => {
      const answer = asked.get(id)!;
      return {
        id,
        answer,
        sent: sentAt.get(id)!,
        written: timings.firstDelta[answer],
        received: firstDeltaAt.get(answer),
      };
    }),
  );

function line(label: string, values: number[], expected: number) {
  const sorted = [...values].sort((a, b) => a - b);
  const missing = expected - sorted.length;
  return (
    `${label}: n=${sorted.length} p50=${percentile(sorted, 50).toFixed(1)} ms p90=${percentile(sorted, 90).toFixed(1)} ms ` +
    `p99=${percentile(sorted, 99).toFixed(1)} ms max=${sorted.at(-1)?.toFixed(1)} ms${missing ? ` (${missing} without a streamed token)` : ''}`
  );
}

console.log(
  `database=${server.databaseKind} chunks=${server.chunks} model=${MODEL === 'builtin' ? 'built-in extractive' : 'openai-compatible (local, streams at once)'} embedding=built-in (lexical); clients in their own process`,
);
const [warmToken, oneToken, ...manyTokens] = await server.tokens(52);
await converse(warmToken!, 10);

// The floor: one authenticated request and its answer, from this client.
const me: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const at = performance.now();
  const res = await fetch(`${server.url}/api/me/`, { headers: { authorization: `Token ${oneToken}` } });
  await res.arrayBuffer();
  me.push(performance.now() - at);
}

/** Runs a phase and returns its bench ids with the server's CPU time per answer. */
async function measured(phase: () => Promise<string[]>) {
  const cpuBefore = await server.cpuMs();
  const ids = await phase();
  return { ids, cpuPerAnswer: ((await server.cpuMs()) - cpuBefore) / ids.length };
}
const one = await measured(() => converse(oneToken!, ROUNDS));
const perConversation = Math.max(2, Math.round((ROUNDS * 4) / 50));
// Back to back: each conversation asks again the moment its answer ends (saturation).
const saturatedAt = performance.now();
const saturated = await measured(async () =>
  (await Promise.all(manyTokens.map((t) => converse(t, perConversation)))).flat(),
);
const saturatedSeconds = (performance.now() - saturatedAt) / 1000;
// As people chat: a 0–3 s pause before each question (to arrive, then to read the last answer).
const pacedRun = async () =>
  (await Promise.all(manyTokens.map((t) => converse(t, perConversation, [0, 3000])))).flat();
const paced = await measured(pacedRun);
// The same load once more under the profiler (which slows the server): where the time goes.
const profileFile = path.join(os.tmpdir(), `cairn-first-token-${Date.now()}.cpuprofile`);
const profiled = await server.profile(pacedRun, profileFile);

const timings = await server.timings();
const targets =
  MODEL === 'builtin'
    ? { one: 'p50 ≤ 8 ms', paced: 'p99 ≤ 60 ms' }
    : { one: 'p50 ≤ 12 ms', paced: 'p50 ≤ 20 ms, p99 ≤ 100 ms' };
const report = (label: string, phase: { ids: string[]; cpuPerAnswer: number }, target = '') => {
  console.log(
    `${line(`${label} client: sent → first delta`, clientTimes(phase.ids), phase.ids.length)}${target && `  (target ${target})`}`,
  );
  console.log(
    `${line(`${label} server: arrival → first delta written`, serverTimes(timings, phase.ids), phase.ids.length)}; server CPU ${phase.cpuPerAnswer.toFixed(1)} ms/answer`,
  );
  console.log(`${label} split, p50 ms: ${split(timings, phase.ids)}`);
};
console.log(`${line('reference: GET /api/me/, 1 client, sent → body received', me, ROUNDS)}`);
report('1 conversation                 ', one, targets.one);
report('50 conversations, back to back ', saturated);
console.log(
  `50 conversations, back to back: ${saturated.ids.length} answers in ${saturatedSeconds.toFixed(1)} s → ${(saturated.ids.length / saturatedSeconds).toFixed(0)} answers/s  (target ≥ 100 answers/s)`,
);
report('50 conversations, 0–3 s pauses ', paced, targets.paced);
console.log(`failed answers: ${failed.length}${failed.length ? ` (first: ${failed[0]})` : ''}`);
console.log('\nServer CPU during the 50 paced conversations (a second run, under the profiler):');
for (const row of profiled.top) console.log(`  ${row}`);
socket.close();
await server.close();
