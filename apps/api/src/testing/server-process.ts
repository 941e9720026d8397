import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiCall } from './api-call.ts';
import { type Mail, readOutbox, waitForMail } from './mail.ts';
import { newTestEmail, type RunningCairn } from './running-cairn.ts';
import { signUpThroughMail } from './sign-up.ts';
import { waitFor } from './wait-for.ts';

// This module is loaded by Playwright and the benches as well: it must not import the app.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  /** The signal that ended the process, else its exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** Everything it printed so far (stdout and stderr; empty with `inherit`). */
  output: () => string;
}

export interface ServerProcessOptions {
  /** Run `apps/api/dist/server.js` as `npm start` does (build it first: `node scripts/ensure-build.mjs`). */
  built?: boolean;
  /** Print to this process's stdout and stderr instead of keeping the output (the benches). */
  inherit?: boolean;
}

/**
 * `src/server.ts` as its own process, as `npm start` runs it (`node --import tsx` keeps the server
 * in this one process, so a SIGKILL hits the server itself). The one way tests, e2e and benches
 * start a server process; `started` collects it for an `afterAll` that kills what is left.
 */
export function startServer(
  env: Record<string, string>,
  started: ChildProcess[] = [],
  options: ServerProcessOptions = {},
): ServerProcess {
  const args = options.built
    ? ['--max-semi-space-size=4', 'apps/api/dist/server.js']
    : ['--import', 'tsx', 'apps/api/src/server.ts'];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      ...(options.built && { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' }),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', options.inherit ? 'inherit' : 'pipe', options.inherit ? 'inherit' : 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return { child, exited, output: () => output };
}

/** Waits until `/api/health/` answers, or fails at once if the process ends first. */
export async function waitHealthy(port: number, exited: Promise<unknown>, timeoutMs = 60_000) {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  await waitFor(
    async () => {
      if (gone) throw new Error('the server process exited before it was healthy');
      try {
        return (await fetch(`http://127.0.0.1:${port}/api/health/`)).ok;
      } catch {
        return false; // not listening yet
      }
    },
    { what: `the server on port ${port} to be healthy`, timeoutMs, intervalMs: 100 },
  );
}

/** The first e-mail in a server process's DATA_DIR/outbox, waiting for it (sent by a job, decision 068). */
export async function firstOutboxMail(dataDir: string): Promise<Mail> {
  const [first] = await waitFor(() => readOutbox(dataDir), {
    until: (mails) => mails.length > 0,
    what: `an e-mail in ${dataDir}/outbox`,
    timeoutMs: 15_000,
    intervalMs: 100,
  });
  return first!;
}

/** A verified account on a server process, as a person makes one. Returns its token and sender identifier. */
export async function signUpOverHttp(base: string, dataDir: string, email: string) {
  const login = await signUpThroughMail(
    apiCall(base),
    (to, subject) => waitForMail(() => readOutbox(dataDir), to, subject),
    email,
  );
  return { token: login.token, sender: `reg_${login.user.id}` };
}

export interface RunningServer extends ServerProcess, RunningCairn {
  port: number;
  dataDir: string;
  /** SIGTERM (SIGKILL after 5 s), then the data dir is removed unless the caller gave it. */
  stop(): Promise<void>;
}

/**
 * A healthy server process on a free port with a fresh DATA_DIR (unless `env` names them), with the
 * same mail and sign-up helpers as the in-process test app: the e2e's and the benches' server.
 */
export async function startRunningServer(
  env: Record<string, string> = {},
  options: ServerProcessOptions & { timeoutMs?: number } = {},
): Promise<RunningServer> {
  const port = Number(env.PORT ?? (await freePort()));
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-server-'));
  const url = `http://127.0.0.1:${port}`;
  const server = startServer(
    { PUBLIC_URL: url, DATABASE_URL: '', ...env, PORT: String(port), DATA_DIR: dataDir },
    [],
    options,
  );
  async function stop() {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      const killed = setTimeout(() => server.child.kill('SIGKILL'), 5000);
      await server.exited;
      clearTimeout(killed);
    }
    if (env.DATA_DIR === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    await waitHealthy(port, server.exited, options.timeoutMs);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${server.output()}`);
  }
  const call = apiCall(url);
  const outbox = () => readOutbox(dataDir);
  const lastMail = (to: string, subject?: string) => waitForMail(outbox, to, subject);
  return {
    ...server,
    url,
    port,
    dataDir,
    call,
    outbox,
    lastMail,
    signUp: (email = newTestEmail(), password) => signUpThroughMail(call, lastMail, email, password),
    stop,
  };
}
