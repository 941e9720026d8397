import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstOutboxMail, freePort, startServer, waitHealthy } from '../../testing/server-process.ts';
import { TEST_PASSWORD } from '../../testing/sign-up.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { type Receiver, startReceiver } from '../../testing/webhook-receiver.ts';

const children: ChildProcess[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(receivers.map((r) => r.close()));
});

describe('webhook deliveries across a kill -9', () => {
  it('loses none: the one in flight is sent again with the same id, the one scheduled arrives on time', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-webhooks-'));
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), ALLOW_PRIVATE_URLS: 'true' };
    const base = `http://127.0.0.1:${port}`;
    const call = async (method: string, p: string, body?: unknown, token?: string) => {
      const res = await fetch(base + p, {
        method,
        headers: {
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(token && { authorization: `Token ${token}` }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };

    const first = startServer(env, children);
    // Slow on a loaded machine: tsx compiles the server, and PGlite makes a new data dir.
    await waitHealthy(port, first.exited, 150_000);
    const email = 'hooks@example.com';
    expect((await call('POST', '/api/register/', { email, password: TEST_PASSWORD })).status).toBe(201);
    const mail = await firstOutboxMail(dataDir);
    const verifyToken = new URL(mail.links.find((l) => l.includes('verify-email'))!).searchParams.get(
      'token',
    );
    expect((await call('POST', '/api/verify-email/', { token: verifyToken })).status).toBe(200);
    const { token } = (await call('POST', '/api/login/', { email, password: TEST_PASSWORD })).body;

    // One receiver holds the first request open: the process dies with that attempt in flight.
    const inFlight = await startReceiver();
    receivers.push(inFlight);
    inFlight.script.push('hang');
    // The other fails its first attempt: its retry is due 5 s later (the real schedule).
    const scheduled = await startReceiver();
    receivers.push(scheduled);
    scheduled.script.push({ status: 500 });
    const hooks: Array<{ uuid: string }> = [];
    for (const r of [inFlight, scheduled]) {
      const res = await call(
        'POST',
        '/api/webhooks/',
        { url: `${r.url}/in`, events: ['message.created'] },
        token,
      );
      expect(res.status).toBe(201);
      r.secrets.push(res.body.secret);
      hooks.push(res.body);
      expect((await call('POST', `/api/webhooks/${res.body.uuid}/test/`, undefined, token)).status).toBe(202);
    }
    await inFlight.waitFor(1);
    await scheduled.waitFor(1);
    // Give the failed attempt a moment to be recorded (its retry job with it).
    await waitFor(
      async () =>
        (await call('GET', `/api/webhooks/${hooks[1]!.uuid}/deliveries/`, undefined, token)).body
          .deliveries[0]?.attempt_count === 1,
      { what: 'the failed attempt to be recorded', timeoutMs: 5000, intervalMs: 50 },
    );

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const killedAt = Date.now();

    const again = startServer(env, children);
    await waitHealthy(port, again.exited, 150_000);
    const [, resent] = await inFlight.waitFor(2, 30_000);
    expect(resent!.headers['webhook-id']).toBe(inFlight.received[0]!.headers['webhook-id']);
    expect(resent!.verifiedWith).toHaveLength(1);
    const [firstTry, retry] = await scheduled.waitFor(2, 30_000);
    expect(retry!.headers['webhook-id']).toBe(firstTry!.headers['webhook-id']);
    expect(retry!.verifiedWith).toHaveLength(1);
    // Not before its time (5 s ± 10 % after the first attempt), whatever the restart did.
    expect(retry!.at - firstTry!.at).toBeGreaterThanOrEqual(4400);

    for (const hook of hooks) {
      const log = await call('GET', `/api/webhooks/${hook.uuid}/deliveries/`, undefined, token);
      expect(log.body.deliveries).toHaveLength(1);
      expect(log.body.deliveries[0].status).toBe('succeeded');
    }
    // The in-flight attempt left no row (the process died before recording it): one attempt, a success.
    const inFlightLog = await call('GET', `/api/webhooks/${hooks[0]!.uuid}/deliveries/`, undefined, token);
    expect(inFlightLog.body.deliveries[0].attempts.map((a: { ok: boolean }) => a.ok)).toEqual([true]);
    expect(Date.now() - killedAt).toBeLessThan(60_000);

    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 420_000);
});
