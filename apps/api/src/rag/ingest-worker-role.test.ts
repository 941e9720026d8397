import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../app.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * ROLE=api + ROLE=worker: an API instance that runs no workers only queues; a separate worker
 * instance on the same database ingests, and its `kb_updates` reach the sockets of the API instance.
 */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({}, { runWorkers: false });
  token = (await t.signUp()).token;
});
afterAll(() => t.close());

describe('separate worker process role', () => {
  it('the API queues, the worker ingests, the socket on the API sees it', async () => {
    const socket = new WebSocket(`${t.url.replace('http', 'ws')}/api/ws`, {
      headers: { authorization: `Token ${token}` },
    });
    const events: Array<{ event: string; data: any }> = [];
    socket.on('message', (raw) => events.push(JSON.parse(raw.toString())));
    await new Promise((resolve) => socket.once('message', resolve));

    const form = new FormData();
    form.append('name', 'Split roles');
    form.append('items[0].type', 'text');
    form.append('items[0].value', 'Buoy colours\n\nA red buoy marks the port side of the channel.');
    const created = await t.call('POST', '/api/applications/', { token, form });
    expect(created.status).toBe(201);
    const list = () => t.call('GET', `/api/applications/${created.body.uuid}/knowledge/`, { token });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await list()).body[0].status).toBe('queued');

    const worker = await buildApp({
      config: t.config,
      database: t.database,
      runWorkers: true,
      logger: false,
    });
    await worker.ready();
    try {
      let status = 'queued';
      for (let i = 0; i < 200 && status !== 'ready'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await list()).body[0].status;
      }
      expect(status).toBe('ready');
      for (let i = 0; i < 50 && !events.some((e) => e.data?.item?.status === 'ready'); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const seen = events.filter((e) => e.event === 'kb_updates').map((e) => e.data.item.status);
      expect(seen[0]).toBe('queued');
      expect(seen).toContain('processing');
      expect(seen.at(-1)).toBe('ready');
    } finally {
      socket.close();
      await worker.close();
    }
  });
});
