import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEml, TEST_PASSWORD } from './testing/test-app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Starts `src/server.ts` as its own process, the way `npm start` runs it. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitHealthy(port: number, exited: Promise<unknown>) {
  const deadline = Date.now() + 60_000;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (Date.now() < deadline && !gone) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health/`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy');
}

const post = (port: number, p: string, body: unknown, token?: string) =>
  fetch(`http://127.0.0.1:${port}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Token ${token}` }) },
    body: JSON.stringify(body),
  });

describe('the server process on embedded PGlite', () => {
  it('serves a new user end to end, keeps data across a restart, and refuses a second process on the same data', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-proc-'));
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };
    const first = startServer(env);
    await waitHealthy(port, first.exited);

    expect(
      (await post(port, '/api/register/', { email: 'proc@example.com', password: TEST_PASSWORD })).status,
    ).toBe(201);
    const outbox = path.join(dataDir, 'outbox');
    const [file] = fs.readdirSync(outbox);
    const mail = parseEml(fs.readFileSync(path.join(outbox, file!), 'utf8'));
    // The subject is logged too (stdout is a pipe: give the line a moment to arrive).
    for (let i = 0; i < 50 && !first.output().includes('Verify your e-mail address'); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(first.output()).toContain('Verify your e-mail address');
    const link = mail.links.find((l) => l.startsWith(`http://localhost:${port}/verify-email?token=`))!;
    expect(
      (await post(port, '/api/verify-email/', { token: new URL(link).searchParams.get('token') })).status,
    ).toBe(200);
    const { token } = (await (
      await post(port, '/api/login/', { email: 'proc@example.com', password: TEST_PASSWORD })
    ).json()) as {
      token: string;
    };
    const created = await post(port, '/api/applications/', { name: 'Survives restarts' }, token);
    expect(created.status).toBe(201);

    const second = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by another Cairn process/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'secret-key'))).toBe(true);

    const again = startServer(env);
    await waitHealthy(port, again.exited);
    const list = await fetch(`http://127.0.0.1:${port}/api/applications/`, {
      headers: { authorization: `Token ${token}` },
    });
    expect(((await list.json()) as Array<{ name: string }>).map((a) => a.name)).toEqual([
      'Survives restarts',
    ]);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 120_000);

  it('exits with the list of bad settings', async () => {
    const bad = startServer({
      PORT: 'x',
      ROLE: 'nope',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-proc-')),
    });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('PORT');
    expect(bad.output()).toContain('ROLE');
  });
});
