import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../app.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { waitFor } from '../testing/wait-for.ts';

let t: TestApp;
let alice: { token: string; user: { id: number } };
let bob: { token: string; user: { id: number } };
beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
});
afterAll(() => t.close());

/** Opens a socket and collects its events; resolves once the server said `ready`. */
async function connect(headers: Record<string, string>) {
  const socket = new WebSocket(`${t.url.replace('http', 'ws')}/api/ws`, { headers });
  const events: Array<{ event: string; data: any }> = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (raw) => events.push(JSON.parse(raw.toString())));
  await new Promise<void>((resolve, reject) => {
    socket.on('message', () => resolve());
    socket.on('error', reject);
    void closed.then(() => resolve());
  });
  return { socket, events, closed };
}

/** Another app on the same database, as another API process or a worker would be. */
async function anotherProcess() {
  const app = await buildApp({ config: t.config, database: t.database, runWorkers: false, logger: false });
  await app.ready();
  return app;
}

describe('/api/ws', () => {
  it('delivers a user’s events to all of their sockets and to no one else', async () => {
    const tab1 = await connect({ authorization: `Token ${alice.token}` });
    const tab2 = await connect({ cookie: `auth_token=${alice.token}`, origin: t.url });
    const other = await connect({ authorization: `Token ${bob.token}` });
    expect(tab1.events[0]).toEqual({ event: 'ready', data: { user_id: alice.user.id } });

    await t.app.realtime.publish(alice.user.id, { event: 'kb_updates', data: { hello: 'world' } });
    await waitFor(() => tab1.events.length > 1 && tab2.events.length > 1);
    expect(tab1.events.at(-1)).toEqual({ event: 'kb_updates', data: { hello: 'world' } });
    expect(tab2.events.at(-1)).toEqual({ event: 'kb_updates', data: { hello: 'world' } });
    expect(other.events.map((e) => e.event)).toEqual(['ready']);
    for (const s of [tab1, tab2, other]) s.socket.close();
  });

  it('carries payloads larger than a NOTIFY can hold, from this process and from another', async () => {
    const tab = await connect({ authorization: `Token ${alice.token}` });
    const other = await anotherProcess();
    try {
      await t.app.realtime.publish(alice.user.id, { event: 'message', data: { big: 'x'.repeat(50_000) } });
      await other.realtime.publish(alice.user.id, { event: 'message', data: { big: 'y'.repeat(60_000) } });
      await waitFor(() => tab.events.length > 2);
      expect(tab.events.slice(1).map((e) => e.data.big.length)).toEqual([50_000, 60_000]);
    } finally {
      tab.socket.close();
      await other.close();
    }
  });

  it('delivers each event once to the publishing process’s own sockets, in publish order', async () => {
    const tab = await connect({ authorization: `Token ${alice.token}` });
    for (let i = 0; i < 20; i++)
      void t.app.realtime.publish(alice.user.id, { event: 'message', data: { i } });
    await waitFor(() => tab.events.length > 20);
    await new Promise((r) => setTimeout(r, 100));
    expect(tab.events.slice(1).map((e) => e.data.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    tab.socket.close();
  });

  it('fans out events published by another app instance on the same database', async () => {
    const tab = await connect({ authorization: `Token ${alice.token}` });
    const worker = await anotherProcess();
    try {
      await worker.realtime.publish(alice.user.id, { event: 'kb_updates', data: { from: 'worker' } });
      await waitFor(() => tab.events.length > 1);
      expect(tab.events.at(-1)).toEqual({ event: 'kb_updates', data: { from: 'worker' } });
    } finally {
      tab.socket.close();
      await worker.close();
    }
  });

  it('gives a listener of one uuid the message events about it (chatroom, message, visitor), each once, from any process', async () => {
    const other = await anotherProcess();
    const room = '6f1c1d0e-1111-4111-8111-000000000001';
    const answer = '6f1c1d0e-1111-4111-8111-000000000002';
    const visitor = '6f1c1d0e-1111-4111-8111-000000000003';
    const message = (uuid: string) => ({
      uuid,
      message: '',
      sender_identifier: 'assistant',
      status: 'complete',
    });
    const heard = {
      room: [] as string[],
      answer: [] as string[],
      visitor: [] as string[],
      bob: [] as string[],
    };
    const tag = (into: string[]) => (e: { event: string; data: unknown }) =>
      into.push(`${e.event}:${(e.data as { kind?: string }).kind ?? '-'}`);
    const stops = [
      t.app.realtime.subscribeTo(alice.user.id, room, tag(heard.room)),
      t.app.realtime.subscribeTo(alice.user.id, answer, tag(heard.answer)),
      t.app.realtime.subscribeTo(alice.user.id, visitor, tag(heard.visitor)),
      // Bob's listener of the same uuid hears nothing of Alice's.
      t.app.realtime.subscribeTo(bob.user.id, room, tag(heard.bob)),
    ];
    try {
      const base = { application_uuid: 'a', chatroom_uuid: room };
      await t.app.realtime.publish(alice.user.id, {
        event: 'message',
        data: { ...base, kind: 'chatroom', chatroom: {}, visitor_uuid: visitor },
      });
      await other.realtime.publish(alice.user.id, {
        event: 'message',
        data: {
          ...base,
          kind: 'delta',
          message_uuid: answer,
          run: 0,
          offset: 0,
          delta: 'Hi',
          visitor_uuid: visitor,
        },
      });
      await other.realtime.publish(alice.user.id, {
        event: 'message',
        data: { ...base, chatroom_uuid: 'elsewhere', kind: 'updated', message: message(answer) },
      });
      await t.app.realtime.publish(alice.user.id, {
        event: 'message',
        data: { ...base, chatroom_uuid: 'elsewhere', kind: 'created', message: message('another') },
      });
      await t.app.realtime.publish(alice.user.id, { event: 'kb_updates', data: { chatroom_uuid: room } });
      await waitFor(() => heard.answer.length === 2);
      expect(heard.room).toEqual(['message:chatroom', 'message:delta']);
      expect(heard.answer).toEqual(['message:delta', 'message:updated']);
      expect(heard.visitor).toEqual(['message:chatroom', 'message:delta']);
      stops[0]!();
      await t.app.realtime.publish(alice.user.id, {
        event: 'message',
        data: { ...base, kind: 'chatroom_deleted' },
      });
      await other.realtime.publish(alice.user.id, {
        event: 'message',
        data: { ...base, kind: 'updated', message: message(answer) },
      });
      await waitFor(() => heard.answer.length === 3);
      expect(heard.room).toHaveLength(2);
      expect(heard.bob).toEqual([]);
    } finally {
      for (const stop of stops) stop();
      await other.close();
    }
  });

  it('refuses sockets without valid credentials, or with a cookie from another origin', async () => {
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Token wrong' },
      { cookie: `auth_token=${alice.token}`, origin: 'https://evil.example' },
    ];
    for (const headers of cases) {
      const { closed, events } = await connect(headers);
      expect(await closed).toBe(4401);
      expect(events).toEqual([]);
    }
  });
});
