import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, signUpOverHttp, startServer, waitHealthy } from '../testing/server-process.ts';
import { waitFor } from '../testing/wait-for.ts';

/**
 * Crash safety as a real process crash: the server runs as its own process (tsx), is killed with
 * SIGKILL while an item is processing, and started again on the same data directory.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixtures = path.join(ROOT, 'apps/api/src/rag/parse/fixtures');

const children: ChildProcess[] = [];
/** The server process, as `npm start` runs it, printing to this one's output. */
const serve = (dataDir: string, port: number) =>
  startServer(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      ALLOW_PRIVATE_URLS: 'true',
      DATABASE_URL: '',
      NODE_ENV: 'production',
    },
    children,
    { inherit: true },
  );

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
    let server = serve(dataDir, port);
    // Slow on a loaded machine: tsx compiles the server, and PGlite makes a new data dir.
    await waitHealthy(port, server.exited, 150_000);

    // Sign up through the API and the outbox, as a person would.
    const { token } = await signUpOverHttp(base, dataDir, 'crash@example.com');
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
    server.child.kill('SIGKILL');
    await server.exited;
    hang = false;

    server = serve(dataDir, port);
    // Slow on a loaded machine: tsx compiles the server, and PGlite makes a new data dir.
    await waitHealthy(port, server.exited, 150_000);
    const items = await waitFor(list, {
      until: (l) => l.every((x) => x.status === 'ready' || x.status === 'failed'),
      what: 'every item to settle after the restart',
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    expect(items.map((x) => [x.status, x.error])).toEqual(items.map(() => ['ready', null]));
    expect(items[0]!.title).toBe('Slow page');
    expect(items.every((x) => x.chunk_count > 0)).toBe(true);
    expect(hits).toBeGreaterThanOrEqual(2);
    server.child.kill('SIGTERM');
    await server.exited;
  }, 180_000);
});
