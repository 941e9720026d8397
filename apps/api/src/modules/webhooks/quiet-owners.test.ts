import { type Database, openDatabase } from '@cairn/db/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { type Receiver, startReceiver } from '../../testing/webhook-receiver.ts';
import { quietOwners } from './quiet-owners.ts';

/**
 * An owner without webhooks has their events told to nobody without a lookup, once that is known
 * (decision 100). A webhook created or turned on a moment later still hears the very next answer:
 * in this process, and when another process answers.
 */

const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour.',
};
type Owner = { token: string; user: { id: number } };

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

async function createHook(t: TestApp, owner: Owner, r: Receiver, json: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/webhooks/', {
    token: owner.token,
    json: { url: `${r.url}/hook`, events: ['message.created'], ...json },
  });
  expect(res.status).toBe(201);
  r.secrets.push(res.body.secret);
  return res.body.uuid as string;
}

/** Asks in a new chat through `t` and waits until the answer is final and its events delivered. */
async function asked(
  t: TestApp,
  owner: Owner,
  appUuid: string,
  answering: Array<{ events: TestApp['app']['events'] }>,
) {
  const sent = await t.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
    token: owner.token,
    json: {
      chatroom_identifier: 'new_chat',
      message: 'How long is the X200 warranty?',
      sender_identifier: `reg_${owner.user.id}`,
    },
  });
  expect(sent.status).toBe(201);
  const room = sent.body.chatroom.uuid as string;
  await waitFor(
    async () =>
      (
        await t.call('GET', `/api/applications/${appUuid}/chatrooms/${room}/messages/`, {
          token: owner.token,
        })
      ).body.messages as Array<{ uuid: string; status: string }>,
    {
      until: (messages) => messages.some((m) => m.uuid === sent.body.answer.uuid && m.status === 'complete'),
    },
  );
  for (const app of answering) await productEventsSettled(app);
  return { question: sent.body.message.uuid as string, answer: sent.body.answer.uuid as string };
}

/** The `message.created` events the receiver got, by message uuid. */
const heard = (r: Receiver) =>
  r.received.map((got) => (got.payload as { data: { message: { uuid: string } } }).data.message.uuid);

describe('owners without webhooks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    cleanups.push(() => t.close());
  });

  it('a webhook created right after answers that told nobody hears the next question and answer', async () => {
    const owner = await t.signUp();
    const { uuid: appUuid } = await applicationWith(t, owner.token, [WARRANTY]);
    await asked(t, owner, appUuid, [t.app]);
    // Known on PGlite, where this process sees every change of the webhooks; never on PostgreSQL.
    expect(quietOwners(t.database).has(owner.user.id)).toBe(t.database.kind === 'pglite');

    const r = await receiver();
    await createHook(t, owner, r);
    const next = await asked(t, owner, appUuid, [t.app]);
    await waitFor(() => heard(r), { until: (uuids) => uuids.length >= 2, what: 'two message.created' });
    expect(heard(r).sort()).toEqual([next.question, next.answer].sort());
  });

  it('a paused webhook turned back on hears the next answer', async () => {
    const owner = await t.signUp();
    const { uuid: appUuid } = await applicationWith(t, owner.token, [WARRANTY]);
    const r = await receiver();
    const hook = await createHook(t, owner, r);
    const paused = await t.call('PATCH', `/api/webhooks/${hook}/`, {
      token: owner.token,
      json: { enabled: false },
    });
    expect(paused.body.enabled).toBe(false);
    await asked(t, owner, appUuid, [t.app]);
    expect(quietOwners(t.database).has(owner.user.id)).toBe(t.database.kind === 'pglite');
    expect(r.received).toEqual([]);

    const on = await t.call('PATCH', `/api/webhooks/${hook}/`, {
      token: owner.token,
      json: { enabled: true },
    });
    expect(on.body.enabled).toBe(true);
    const next = await asked(t, owner, appUuid, [t.app]);
    await waitFor(() => heard(r), { until: (uuids) => uuids.length >= 2, what: 'two message.created' });
    expect(heard(r).sort()).toEqual([next.question, next.answer].sort());
  });
});

describe('across processes', () => {
  it('a webhook created through one process hears the answer another process writes', async () => {
    // The API process stores questions; the worker answers them and delivers the answers' events.
    const t = await startTestApp({ answerSlots: 0 }, { runWorkers: false });
    cleanups.push(() => t.close());
    // On PostgreSQL the worker has a database client of its own, as another process would; PGlite
    // cannot be opened twice, and two apps on one share what they know.
    const raw = t.database.raw;
    let database: Database = t.database;
    if ('options' in raw && raw.options.connectionString) {
      database = await openDatabase({ databaseUrl: raw.options.connectionString });
      cleanups.push(() => database.close());
    }
    const worker = await buildApp({
      config: { ...t.config, answerSlots: 64 },
      database,
      runWorkers: true,
      logger: false,
    });
    await worker.ready();
    cleanups.push(() => worker.close());

    const owner = await t.signUp();
    const { uuid: appUuid } = await applicationWith(t, owner.token, [WARRANTY]);
    await asked(t, owner, appUuid, [t.app, worker]);
    expect(quietOwners(database).has(owner.user.id)).toBe(t.database.kind === 'pglite');

    const r = await receiver();
    await createHook(t, owner, r);
    const next = await asked(t, owner, appUuid, [t.app, worker]);
    await waitFor(() => heard(r), { until: (uuids) => uuids.length >= 2, what: 'two message.created' });
    expect(heard(r).sort()).toEqual([next.question, next.answer].sort());
  });
});
