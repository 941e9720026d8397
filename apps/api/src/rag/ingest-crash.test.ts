import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { firstOutboxMail, TEST_PASSWORD } from '../testing/test-app.ts';

/**
 * Crash safety as a real process crash: the server runs as its own process (tsx), is killed with
 * SIGKILL while an item is processing, and started again on the same data directory.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixtures = path.join(ROOT, 'apps/api/src/rag/parse/fixtures');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

function startServer(dataDir: string, port: number): ChildProcess {
  // `node --import tsx` keeps the server in this one process, so SIGKILL hits the server itself.
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/api/src/server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_URLS: 'true',
      DATABASE_URL: '',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function waitReady(base: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/health/`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

const children: ChildProcess[] = [];
let dataDir: string;
let site: http.Server | undefined;
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  site?.closeAllConnections();
  site?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('ingestion survives a crash', () => {
  it('kill -9 mid-ingestion, restart: every item completes', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-crash-'));
    // A web page that hangs until the first server is dead, so the item is surely mid-processing.
    let hang = true;
    let hits = 0;
    let firstHit!: () => void;
    const firstHitSeen = new Promise<void>((resolve) => {
      firstHit = resolve;
    });
    site = http.createServer((_req, res) => {
      hits++;
      firstHit();
      if (hang) return;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<html><head><title>Slow page</title></head><body><h1>Slow page</h1><p>The slow page arrived after the restart.</p></body></html>',
      );
    });
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as net.AddressInfo).port}/`;

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = startServer(dataDir, port);
    children.push(server);
    await waitReady(base, server);

    // Sign up through the API and the outbox, as a person would.
    const email = 'crash@example.com';
    await fetch(`${base}/api/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, username: email, password: TEST_PASSWORD }),
    });
    const mail = await firstOutboxMail(dataDir);
    const verifyToken = new URL(mail.links.find((l) => l.includes('verify-email'))!).searchParams.get(
      'token',
    );
    await fetch(`${base}/api/verify-email/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: verifyToken }),
    });
    const login = await fetch(`${base}/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Token ${token}` };

    const form = new FormData();
    form.append('name', 'Crash test');
    form.append('items[0].type', 'url');
    form.append('items[0].value', siteUrl);
    form.append('items[1].type', 'file');
    form.append(
      'items[1].file',
      new Blob([fs.readFileSync(path.join(fixtures, 'sample.pdf'))]),
      'orchard.pdf',
    );
    for (let i = 2; i < 8; i++) {
      form.append(`items[${i}].type`, 'text');
      form.append(
        `items[${i}].value`,
        `Note ${i}\n\nThe crash test note number ${i} mentions lighthouse ${i}.`,
      );
    }
    const created = await fetch(`${base}/api/applications/`, { method: 'POST', headers: auth, body: form });
    expect(created.status).toBe(201);
    const { uuid } = (await created.json()) as { uuid: string };
    const list = async () =>
      (await (
        await fetch(`${base}/api/applications/${uuid}/knowledge/`, { headers: auth })
      ).json()) as Array<{
        title: string;
        status: string;
        chunk_count: number;
        error: string | null;
      }>;

    await firstHitSeen;
    expect((await list())[0]!.status).toBe('processing');
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    hang = false;

    server = startServer(dataDir, port);
    children.push(server);
    await waitReady(base, server);
    let items = await list();
    for (let i = 0; i < 300 && !items.every((x) => x.status === 'ready' || x.status === 'failed'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      items = await list();
    }
    expect(items.map((x) => [x.status, x.error])).toEqual(items.map(() => ['ready', null]));
    expect(items[0]!.title).toBe('Slow page');
    expect(items.every((x) => x.chunk_count > 0)).toBe(true);
    expect(hits).toBeGreaterThanOrEqual(2);
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }, 180_000);
});
