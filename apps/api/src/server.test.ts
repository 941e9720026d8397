import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstOutboxMail, freePort, startServer, waitHealthy } from './testing/server-process.ts';
import { TEST_PASSWORD } from './testing/sign-up.ts';
import { waitFor } from './testing/wait-for.ts';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** The server process, logging at info (this test reads its log lines). */
const startLogged = (env: Record<string, string>) => startServer({ LOG_LEVEL: 'info', ...env }, children);

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
    const first = startLogged(env);
    await waitHealthy(port, first.exited);

    expect(
      (await post(port, '/api/register/', { email: 'proc@example.com', password: TEST_PASSWORD })).status,
    ).toBe(201);
    const mail = await firstOutboxMail(dataDir);
    // The subject is logged too (stdout is a pipe: give the line a moment to arrive).
    await waitFor(() => first.output().includes('Verify your e-mail address'), { timeoutMs: 5000 });
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

    // stdout is a pipe: JSON lines for a collector. A start says two things at info: where the app
    // is, and where e-mails go (Fastify's own per-interface lines are debug); requests that went
    // well are not logged at info.
    const lines = first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; level: number });
    const started = lines
      .filter((l) => l.level === 30)
      .slice(0, 2)
      .map((l) => l.msg);
    expect(started[0]).toMatch(
      new RegExp(`^Cairn is up at http://localhost:${port} \\(listening on http://127\\.0\\.0\\.1:${port};`),
    );
    expect(started[1]).toBe(`E-mails go to .eml files in ${fs.realpathSync(dataDir)}/outbox/`);
    expect(lines.some((l) => l.msg.startsWith('Server listening at'))).toBe(false);
    expect(lines.filter((l) => /request completed|incoming request|\/api\/login\//.test(l.msg))).toEqual([]);

    const second = startLogged({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by another Cairn process/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'secret-key'))).toBe(true);

    const again = startLogged(env);
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
    const bad = startLogged({
      PORT: 'x',
      ROLE: 'nope',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-proc-')),
    });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('PORT');
    expect(bad.output()).toContain('ROLE');
  });
});
