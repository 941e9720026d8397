import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEml, TEST_PASSWORD } from './test-app.ts';

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
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
}

/**
 * `src/server.ts` as its own process, as `npm start` runs it (`node --import tsx` keeps the server
 * in this one process, so a SIGKILL hits the server itself).
 */
export function startServer(env: Record<string, string>, started: ChildProcess[]): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return { child, exited, output: () => output };
}

/** Waits until `/api/health/` answers, or fails at once if the process ends first. */
export async function waitHealthy(port: number, exited: Promise<unknown>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (Date.now() < deadline && !gone) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health/`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy');
}

/**
 * A verified account on a server process, as a person makes one: register, the link in the e-mail
 * it wrote to `DATA_DIR/outbox`, sign in. Returns the token and the user's sender identifier.
 */
export async function signUpOverHttp(base: string, dataDir: string, email: string) {
  const post = (p: string, body: unknown) =>
    fetch(base + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const registered = await post('/api/register/', { email, password: TEST_PASSWORD });
  if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
  // The e-mail is written by a job just after the response (decision 068): wait for it.
  const outbox = path.join(dataDir, 'outbox');
  let link: string | undefined;
  for (let i = 0; i < 150 && !link; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 100));
    link = (fs.existsSync(outbox) ? fs.readdirSync(outbox) : [])
      .map((f) => parseEml(fs.readFileSync(path.join(outbox, f), 'utf8')))
      .find((m) => m.to.includes(email))
      ?.links.find((l) => l.includes('verify-email'));
  }
  if (!link) throw new Error(`no verification e-mail to ${email}`);
  await post('/api/verify-email/', { token: new URL(link).searchParams.get('token') });
  const login = (await (await post('/api/login/', { email, password: TEST_PASSWORD })).json()) as {
    token: string;
    user: { id: number };
  };
  return { token: login.token, sender: `reg_${login.user.id}` };
}
