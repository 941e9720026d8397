/**
 * Time to first token: the server's own time from receiving `POST …/send-message/` to writing the
 * answer's first streamed token on the owner's socket, with 10k chunks of knowledge and a local
 * OpenAI-compatible server that streams at once. At 1 and at 50 concurrent conversations (each
 * conversation: its own session token, asking SciFact claims one after the other, back to back and
 * then with a 0–3 s pause before each question).
 *
 *   npx tsx bench/chat/first-token.ts [--data-dir DIR (kept: a second run skips indexing)]
 *     [--database-url postgres://…] [--rounds 100] [--chunks 10000]
 */
import type { TMessageEvent } from '@cairn/contracts/chat';
import WebSocket from 'ws';
import { warmLexicalIndex } from '../../apps/api/src/rag/lexical-index.ts';
import { type Bench, call, flag, percentile, seedKnowledge, seedOnce, startBench } from './setup.ts';

const ROUNDS = Number(flag('--rounds') ?? 100);
const CHUNKS = Number(flag('--chunks') ?? 10_000);

// Server-side clocks: when a send-message request reaches the HTTP server (per user token), and
// when a server socket writes the first delta of an answer. Same process, same clock.
const arrivals = new Map<string, number>();
const firstSend = new Map<string, number>();
const originalSend = WebSocket.prototype.send;
WebSocket.prototype.send = function patchedSend(
  this: WebSocket & { _isServer?: boolean },
  data: unknown,
  ...rest: never[]
) {
  if (
    this._isServer &&
    typeof data === 'string' &&
    data.includes('"kind":"delta"') &&
    data.includes('"offset":0,')
  ) {
    const uuid = /"message_uuid":"([^"]+)"/.exec(data)?.[1];
    if (uuid && !firstSend.has(uuid)) firstSend.set(uuid, performance.now());
  }
  return (originalSend as (...args: unknown[]) => void).call(this, data, ...rest);
} as typeof WebSocket.prototype.send;

const bench = await startBench();
bench.app.server.prependListener('request', (req) => {
  if (req.method === 'POST' && req.url?.endsWith('/send-message/')) {
    arrivals.set(String(req.headers.authorization), performance.now());
  }
});

const { owner, app: knowledgeApp } = await seedOnce(bench, flag('--data-dir'), 'first-token');
const { chunks, claims } = await seedKnowledge(bench, knowledgeApp.id, CHUNKS);

interface Conversation {
  token: string;
}

/** Final answers seen on the owner's socket, and who waits for which. */
const finals = new Map<string, () => void>();
/** Each answer's own `retrieval_ms` (knowledge search inside the first-token time). */
const retrievalMs = new Map<string, number>();
const seen = new Set<string>();

/**
 * The owner's one socket (one browser tab): it receives every conversation's events. Each
 * conversation sends with its own token so that its request arrivals can be told apart.
 */
async function openOwnerSocket(token: string) {
  const socket = new WebSocket(`${bench.url.replace('http', 'ws')}/api/ws`, {
    headers: { authorization: `Token ${token}` },
  });
  socket.on('message', (raw) => {
    const parsed = JSON.parse(raw.toString()) as { event: string; data: TMessageEvent };
    if (parsed.event !== 'message' || parsed.data.kind !== 'updated') return;
    const m = parsed.data.message;
    if (['complete', 'failed', 'stopped'].includes(m.status)) {
      seen.add(m.uuid);
      if (typeof m.metadata.retrieval_ms === 'number') retrievalMs.set(m.uuid, m.metadata.retrieval_ms);
      if (m.status === 'failed') failed.push(String(m.metadata.error));
      finals.get(m.uuid)?.();
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('message', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

async function openConversation(): Promise<Conversation> {
  return { token: (await extraToken(bench, owner.id)).token };
}

async function extraToken(b: Bench, userId: number) {
  const { hashToken, newToken } = await import('../../apps/api/src/lib/tokens.ts');
  const token = newToken();
  await b.database.query('INSERT INTO auth_tokens (user_id, token_hash) VALUES ($1, $2)', [
    userId,
    hashToken(token),
  ]);
  return { token };
}

let claimAt = 0;
const failures: string[] = [];
const failed: string[] = [];

/**
 * Asks `rounds` questions in sequence; returns the server's first-token times (ms). `pauseMs`: the
 * range of the pause before each question — reading the last answer, or, before the first, arriving
 * — drawn anew each time, so conversations do not ask in lockstep (none: back to back).
 */
async function converse(
  c: Conversation,
  rounds: number,
  pauseMs?: [number, number],
): Promise<{ total: number[]; search: number[] }> {
  const times: number[] = [];
  const search: number[] = [];
  let chatroom = 'new_chat';
  for (let i = 0; i < rounds; i++) {
    if (pauseMs)
      await new Promise((r) => setTimeout(r, pauseMs[0] + Math.random() * (pauseMs[1] - pauseMs[0])));
    const claim = claims[claimAt++ % claims.length]!;
    const res = await call(
      bench,
      c.token,
      'POST',
      `/api/applications/${knowledgeApp.uuid}/chatrooms/send-message/`,
      {
        chatroom_identifier: chatroom,
        message: claim,
        sender_identifier: `reg_${owner.id}`,
        metadata: { source: 'web' },
        send_to_user: false,
      },
    );
    const arrived = arrivals.get(`Token ${c.token}`)!;
    chatroom = res.chatroom.uuid;
    const answer = res.answer.uuid as string;
    if (!seen.has(answer)) await new Promise<void>((resolve) => finals.set(answer, resolve));
    const first = firstSend.get(answer);
    if (first === undefined) failures.push(answer);
    else {
      times.push(first - arrived);
      search.push(retrievalMs.get(answer) ?? Number.NaN);
    }
  }
  return { total: times, search };
}

function line(label: string, values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return `${label}: no samples (failed answers: ${failed.length}, first: ${failed[0]})`;
  return (
    `${label}: n=${sorted.length} p50=${percentile(sorted, 50).toFixed(1)} ms p90=${percentile(sorted, 90).toFixed(1)} ms ` +
    `p99=${percentile(sorted, 99).toFixed(1)} ms max=${sorted.at(-1)!.toFixed(1)} ms`
  );
}

/** First-token time, the knowledge search inside it, and the rest (the chat path's own cost). */
function report(label: string, { total, search }: { total: number[]; search: number[] }) {
  console.log(line(`${label} send → first token`, total));
  console.log(line(`${label}   of which retrieval`, search));
  console.log(
    line(
      `${label}   without retrieval `,
      total.map((t, i) => t - search[i]!),
    ),
  );
}

console.log(
  `database=${bench.database.kind} chunks=${chunks} model=openai-compatible (local, streams at once) embedding=built-in (lexical)`,
);
const ownerSocket = await openOwnerSocket((await openConversation()).token);
await converse(await openConversation(), 10);
// Steady state: the warm-up's first question started the in-process copy of the postings
// (apps/api/src/rag/lexical-index.ts); measure once it is built, as a running server would be.
await warmLexicalIndex(bench.database, knowledgeApp.id);

report('1 conversation  ', await converse(await openConversation(), ROUNDS));

const many = await Promise.all(Array.from({ length: 50 }, () => openConversation()));
const perConversation = Math.max(2, Math.round((ROUNDS * 4) / 50));
// Back to back: each conversation asks again the moment its answer ends (saturation).
const saturatedAt = performance.now();
const runs = await Promise.all(many.map((c) => converse(c, perConversation)));
const saturatedSeconds = (performance.now() - saturatedAt) / 1000;
report('50 conversations, back to back', {
  total: runs.flatMap((r) => r.total),
  search: runs.flatMap((r) => r.search),
});
console.log(
  `50 conversations, back to back: ${50 * perConversation} answers in ${saturatedSeconds.toFixed(1)} s → ${((50 * perConversation) / saturatedSeconds).toFixed(0)} answers/s`,
);
// As people chat: a 0–3 s pause before each question (to arrive, then to read the last answer).
const paced = await Promise.all(many.map((c) => converse(c, perConversation, [0, 3000])));
report('50 conversations, 0–3 s pauses', {
  total: paced.flatMap((r) => r.total),
  search: paced.flatMap((r) => r.search),
});
ownerSocket.close();
console.log(
  `answers without a streamed token: ${failures.length}; failed answers: ${failed.length}${failed.length ? ` (first: ${failed[0]})` : ''}`,
);
await bench.close();
