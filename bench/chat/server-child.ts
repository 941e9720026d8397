/**
 * The chat benchmarks' server, in a process of its own so that the clients (another process) do
 * not share its event loop: the real app (API, sockets, answer workers) with ≥N chunks of SciFact
 * knowledge and a local model server, plus server-side clocks. Driven over IPC by
 * `server-handle.ts`; never run by hand.
 *
 * Clocks (this process's own): a request's arrival (by its `x-bench-id` header), the first body
 * write of that request's response (the first SSE chunk of a streamed completion), its end, and the first
 * delta a server socket (or a widget visitor's event stream) writes for each answer, and each
 * answer's steps before it (`answer-phases.ts`).
 */
import { subscribe } from 'node:diagnostics_channel';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import WebSocket from 'ws';
import { ANSWER_PHASES_CHANNEL, type AnswerPhaseMark } from '../../apps/api/src/lib/answer-phases.ts';
import { hashToken, newToken } from '../../apps/api/src/lib/tokens.ts';
import { warmLexicalIndex } from '../../apps/api/src/rag/lexical-index.ts';
import { seedKnowledge, seedOnce, startBench } from './setup.ts';

export interface ChildOptions {
  label: string;
  chunks: number;
  dataDir?: string | undefined;
  databaseUrl?: string | undefined;
  /** ROLE of this process (default `all`): `api` serves without answering, `worker` answers. */
  role?: 'all' | 'api' | 'worker' | undefined;
  /** Another process of the same deployment seeded the owner, application and knowledge. */
  seeded?: { owner: { id: number; token: string }; app: { uuid: string; id: number } } | undefined;
}
export type ChildRequest =
  | { type: 'tokens'; count: number }
  | { type: 'timings' }
  | { type: 'cpu' }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; file: string }
  | { type: 'close' };

const arrival = new Map<string, number>();
const firstWrite = new Map<string, number>();
const ended = new Map<string, number>();
const firstDelta = new Map<string, number>();
/**
 * Answers whose first delta a visitor's event stream wrote: for them that write is the one that
 * counts, not the owner's socket (which hears a visitor's answers too, and earlier).
 */
const streamed = new Set<string>();
/** Answer uuid → its steps to the first delta (the first time each was reached). */
const phases = new Map<string, Record<string, number>>();
subscribe(ANSWER_PHASES_CHANNEL, (message) => {
  const { answer, phase, at } = message as AnswerPhaseMark;
  const marks = phases.get(answer) ?? {};
  marks[phase] ??= at;
  phases.set(answer, marks);
});

const originalSend = WebSocket.prototype.send;
WebSocket.prototype.send = function patchedSend(
  this: WebSocket & { _isServer?: boolean },
  data: unknown,
  ...rest: never[]
) {
  if (this._isServer && typeof data === 'string' && data.includes('"offset":0,')) {
    const uuid = /"message_uuid":"([^"]+)"/.exec(data)?.[1];
    if (uuid && !firstDelta.has(uuid)) firstDelta.set(uuid, performance.now());
  }
  return (originalSend as (...args: unknown[]) => void).call(this, data, ...rest);
} as typeof WebSocket.prototype.send;

const options = JSON.parse(process.argv[2]!) as ChildOptions;
const bench = await startBench({
  dataDir: options.dataDir,
  databaseUrl: options.databaseUrl,
  role: options.role,
});
bench.app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
  // A widget visitor's event stream: clock the first delta it writes for each answer.
  if (req.url?.startsWith('/api/widget/v1/events/')) {
    const write = res.write;
    res.write = function timedEvent(this: ServerResponse, ...args: Parameters<typeof write>) {
      const data = args[0];
      if (typeof data === 'string' && data.includes('"offset":0,')) {
        const uuid = /"message_uuid":"([^"]+)"/.exec(data)?.[1];
        if (uuid && !streamed.has(uuid)) {
          streamed.add(uuid);
          firstDelta.set(uuid, performance.now());
        }
      }
      return write.apply(this, args);
    } as typeof write;
  }
  const id = req.headers['x-bench-id'];
  if (typeof id !== 'string') return;
  arrival.set(id, performance.now());
  const write = res.write;
  res.write = function timedWrite(this: ServerResponse, ...args: Parameters<typeof write>) {
    if (!firstWrite.has(id)) firstWrite.set(id, performance.now());
    return write.apply(this, args);
  } as typeof write;
  // A whole JSON answer is one end(), with no write before it: its time is the answer's.
  const end = res.end;
  res.end = function timedEnd(this: ServerResponse, ...args: Parameters<typeof end>) {
    if (!ended.has(id)) ended.set(id, performance.now());
    return end.apply(this, args);
  } as typeof end;
});

const { owner, app } = options.seeded ?? (await seedOnce(bench, options.dataDir, options.label));
// (Already seeded: only counted.)
const { chunks, claims } = await seedKnowledge(bench, app.id, options.chunks);
// Steady state: answers read BM25 from the in-process copy of the postings, as a running server does.
await warmLexicalIndex(bench.database, app.id);

const session = new Session();
session.connect();

async function handle(request: ChildRequest): Promise<unknown> {
  switch (request.type) {
    case 'tokens':
      return Promise.all(
        Array.from({ length: request.count }, async () => {
          const token = newToken();
          await bench.database.query('INSERT INTO auth_tokens (user_id, token_hash) VALUES ($1, $2)', [
            owner.id,
            hashToken(token),
          ]);
          return token;
        }),
      );
    case 'timings':
      return {
        arrival: Object.fromEntries(arrival),
        firstWrite: Object.fromEntries(firstWrite),
        ended: Object.fromEntries(ended),
        firstDelta: Object.fromEntries(firstDelta),
        phases: Object.fromEntries(phases),
        origin: performance.timeOrigin,
      };
    case 'cpu':
      // CPU time of this process (user + system, ms): per answer, a figure the machine's load barely moves.
      return (({ user, system }) => (user + system) / 1000)(process.cpuUsage());
    case 'profile-start':
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return null;
    case 'profile-stop': {
      const { profile } = await session.post('Profiler.stop');
      fs.writeFileSync(request.file, JSON.stringify(profile));
      return null;
    }
    case 'close':
      await bench.close();
      setImmediate(() => process.exit(0));
      return null;
  }
}

process.on('message', (message: { id: number; request: ChildRequest }) => {
  handle(message.request).then(
    (result) => process.send!({ id: message.id, result }),
    (error: unknown) => process.send!({ id: message.id, error: String(error) }),
  );
});
process.send!({
  ready: { url: bench.url, owner, app, chunks, claims, databaseKind: bench.database.kind },
});
