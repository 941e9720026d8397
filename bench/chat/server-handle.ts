/**
 * The client side of the chat benchmarks: starts `server-child.ts` in its own process (so clients
 * and sockets do not share the server's event loop), and asks it over IPC for tokens, its clocks
 * and a CPU profile of a phase.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildOptions, ChildRequest } from './server-child.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface ServerTimings {
  arrival: Record<string, number>;
  firstWrite: Record<string, number>;
  ended: Record<string, number>;
  firstDelta: Record<string, number>;
  /** Answer uuid → step (`AnswerPhase`) → when it was reached. */
  phases: Record<string, Record<string, number>>;
  /** The server process's `performance.timeOrigin`: its clocks + origin are epoch milliseconds. */
  origin: number;
}

export interface ServerHandle {
  url: string;
  owner: { id: number; token: string };
  app: { uuid: string; id: number };
  chunks: number;
  claims: string[];
  databaseKind: string;
  tokens(count: number): Promise<string[]>;
  timings(): Promise<ServerTimings>;
  /** CPU time the server process has used so far (user + system), in ms. */
  cpuMs(): Promise<number>;
  /** Profiles the server's CPU while `phase` runs; returns the top functions by self time. */
  profile<T>(phase: () => Promise<T>, file: string): Promise<{ result: T; top: string[] }>;
  close(): Promise<void>;
}

export async function startServerChild(options: ChildOptions): Promise<ServerHandle> {
  const child = fork(path.join(here, 'server-child.ts'), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean)],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.on('exit', () => child.kill('SIGKILL'));
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  const ready = new Promise<Omit<ServerHandle, 'tokens' | 'timings' | 'cpuMs' | 'profile' | 'close'>>(
    (resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
      child.on('message', (message: { ready?: unknown; id?: number; result?: unknown; error?: string }) => {
        if (message.ready) return resolve(message.ready as Awaited<typeof ready>);
        const waiter = pending.get(message.id!);
        pending.delete(message.id!);
        if (message.error) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.result);
      });
    },
  );
  const ask = <T>(request: ChildRequest) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, request });
    });
  const info = await ready;
  return {
    ...info,
    tokens: (count) => ask<string[]>({ type: 'tokens', count }),
    timings: () => ask<ServerTimings>({ type: 'timings' }),
    cpuMs: () => ask<number>({ type: 'cpu' }),
    async profile(phase, file) {
      await ask({ type: 'profile-start' });
      const result = await phase();
      await ask({ type: 'profile-stop', file });
      return { result, top: topSelfTime(file) };
    },
    async close() {
      await ask({ type: 'close' });
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The 15 functions (and 8 packages) with the most self time in a V8 CPU profile. */
function topSelfTime(file: string): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const where = frame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '');
    const fn = `${frame.functionName || '(anonymous)'} ${where.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    const pkg = frame.url.includes('/node_modules/')
      ? where
          .split('/')
          .slice(0, where.startsWith('@') ? 2 : 1)
          .join('/')
      : frame.url
        ? frame.url.includes('/apps/') || frame.url.includes('/packages/')
          ? 'cairn'
          : 'node'
        : frame.functionName || '(native)';
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  });
  const line = ([name, us]: [string, number]) =>
    `${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`;
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(line);
  return [
    `CPU profile ${file}: ${(total / 1000).toFixed(0)} ms sampled`,
    'by package:',
    ...top(byPackage, 8),
    'by function (self time):',
    ...top(byFunction, 15),
  ];
}
