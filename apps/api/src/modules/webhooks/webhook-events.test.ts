import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type TWebhookEventData,
  type TWebhookEventType,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_TYPES,
  ZWebhookPayload,
} from '@cairn/contracts/webhooks';
import type { TWidgetBoot } from '@cairn/contracts/widget';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith, useProviderModel } from '../../testing/chat-fixtures.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../../testing/fake-openai-server.ts';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { type Receiver, startReceiver } from '../../testing/webhook-receiver.ts';
import { endUnansweredHandoff, HANDOFF_TIMEOUT_QUEUE } from '../widget/handoff.ts';

/**
 * The product's events reach a real receiver (signed, verified with `standardwebhooks`) when they
 * happen through the real API: owner chat, widget visitor, public API, knowledge ingestion.
 */

const SHOP = 'https://shop.example.com';
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.',
};
const EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.ping');
const fixture = (name: string) =>
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../rag/parse/fixtures', name));

let t: TestApp;
let fake: FakeOpenAI;
let alice: { token: string; user: { id: number } };
let bob: { token: string; user: { id: number } };
/** Alice's application with the warranty manual (built-in models): where everything happens. */
let appUuid: string;
let otherAppUuid: string;
/** Every event of `appUuid`. */
let all: Receiver;
/** Hooks that must hear nothing: limited to Alice's other application, paused, and Bob's. */
const silent: Array<{ receiver: Receiver; hook: string; token: string }> = [];

async function createHook(r: Receiver, json: Record<string, unknown>, token = alice.token) {
  const res = await t.call('POST', '/api/webhooks/', {
    token,
    json: { url: `${r.url}/hook`, events: EVENTS, ...json },
  });
  expect(res.status).toBe(201);
  r.secrets.push(res.body.secret);
  return res.body.uuid as string;
}

/** The product's events (all but the test ping): each names its application. */
type EventType = Exclude<TWebhookEventType, 'webhook.ping'>;
type Data<T extends EventType> = TWebhookEventData<T>;

/** The verified payloads of `type` the receiver got; each `data` parses with the contract's schema. */
function received<T extends EventType>(type: T): Array<Data<T>> {
  return all.received
    .filter((r) => r.verifiedWith.length > 0 && (r.payload as { type: string }).type === type)
    .map((r) => WEBHOOK_EVENT_DATA[type].parse((r.payload as { data: unknown }).data) as Data<T>);
}

/** Waits for `n` events of `type` that match, and checks they name the application. */
async function events<T extends EventType>(
  type: T,
  match: (data: Data<T>) => boolean,
  n = 1,
): Promise<Array<Data<T>>> {
  const found = await waitFor(() => received(type).filter(match), {
    until: (f) => f.length >= n,
    what: `${n} ${type} events`,
    timeoutMs: 15_000,
  });
  for (const data of found) expect(data.application_uuid).toBe(appUuid);
  return found;
}

/** The owner's `send-message` (a new chat unless `extra` names one). */
async function send(message: string, extra: Record<string, unknown> = {}) {
  const sent = await t.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
    token: alice.token,
    json: { chatroom_identifier: 'new_chat', message, sender_identifier: `reg_${alice.user.id}`, ...extra },
  });
  expect(sent.status).toBe(201);
  return sent.body as {
    chatroom: { uuid: string };
    message: { uuid: string };
    answer: { uuid: string; status: string } | null;
  };
}

const messagesOf = async (chatroom: string) =>
  (
    await t.call('GET', `/api/applications/${appUuid}/chatrooms/${chatroom}/messages/`, {
      token: alice.token,
    })
  ).body.messages as Array<{ uuid: string; status: string; sender_identifier: string }>;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
  appUuid = (await applicationWith(t, alice.token, [WARRANTY])).uuid;
  otherAppUuid = (await t.call('POST', '/api/applications/', { token: alice.token, json: { name: 'Sales' } }))
    .body.uuid;
  const bobApp = (await t.call('POST', '/api/applications/', { token: bob.token, json: { name: 'Bob' } }))
    .body.uuid as string;

  all = await startReceiver();
  await createHook(all, { application_uuid: appUuid });
  const other = await startReceiver();
  silent.push({
    receiver: other,
    hook: await createHook(other, { application_uuid: otherAppUuid }),
    token: alice.token,
  });
  const paused = await startReceiver();
  const pausedHook = await createHook(paused, {});
  const off = await t.call('PATCH', `/api/webhooks/${pausedHook}/`, {
    token: alice.token,
    json: { enabled: false },
  });
  expect(off.body.enabled).toBe(false);
  silent.push({ receiver: paused, hook: pausedHook, token: alice.token });
  const bobs = await startReceiver();
  silent.push({
    receiver: bobs,
    hook: await createHook(bobs, { application_uuid: bobApp }, bob.token),
    token: bob.token,
  });
  const bobAll = await startReceiver();
  silent.push({ receiver: bobAll, hook: await createHook(bobAll, {}, bob.token), token: bob.token });

  const widget = await t.call('PATCH', `/api/applications/${appUuid}/widget/`, {
    token: alice.token,
    json: { enabled: true, allowed_origins: [SHOP] },
  });
  expect(widget.status).toBe(200);
});
afterAll(async () => {
  await all?.close();
  await Promise.all(silent.map((s) => s.receiver.close()));
  await t.close();
  await fake.close();
});

describe('webhook events where things happen', () => {
  it('owner chat: conversation.created, message.created for the message and each finished answer run, feedback.created', async () => {
    const sent = await send('How long is the warranty of the X200?');
    const room = sent.chatroom.uuid;
    const answer = sent.answer!.uuid;

    const [created] = await events('conversation.created', (d) => d.chatroom.uuid === room);
    expect(created!.chatroom).toEqual(sent.chatroom);
    expect(created!.chatroom.source).toBe('web');
    const [question] = await events('message.created', (d) => d.message.uuid === sent.message.uuid);
    expect(question).toEqual({
      application_uuid: appUuid,
      chatroom_uuid: room,
      source: 'web',
      message: sent.message,
    });
    const [finished] = await events('message.created', (d) => d.message.uuid === answer);
    expect(finished!.message).toMatchObject({ sender_identifier: 'assistant', status: 'complete', run: 0 });
    expect(finished!.message.message).toContain('three-year warranty');
    // The payload is the message as the API shows it.
    expect((await messagesOf(room)).find((m) => m.uuid === answer)).toEqual(finished!.message);

    // A regeneration is a new run: it finishes, and is announced, once more.
    const again = await t.call(
      'POST',
      `/api/applications/${appUuid}/chatrooms/${room}/messages/${answer}/regenerate/`,
      { token: alice.token },
    );
    expect(again.status).toBe(200);
    const [rerun] = await events('message.created', (d) => d.message.uuid === answer && d.message.run === 1);
    expect(rerun!.message.status).toBe('complete');

    const rate = (feedback: 'up' | 'down' | null) =>
      t.call('PUT', `/api/applications/${appUuid}/chatrooms/${room}/messages/${answer}/feedback/`, {
        token: alice.token,
        json: { feedback },
      });
    expect((await rate('up')).status).toBe(200);
    const [rated] = await events('feedback.created', (d) => d.message.uuid === answer);
    expect(rated).toMatchObject({ chatroom_uuid: room, feedback: 'up', message: { feedback: 'up', run: 1 } });
    // Cleared, then the same rating again: one more event (the rating is new), none for clearing.
    expect((await rate(null)).status).toBe(200);
    expect((await rate('up')).status).toBe(200);
    expect((await rate('up')).status).toBe(200);
    await events('feedback.created', (d) => d.message.uuid === answer, 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(received('feedback.created').filter((d) => d.message.uuid === answer)).toHaveLength(2);
  });

  it('widget visitor: conversation.created, message.created, feedback.created and handoff.requested', async () => {
    const page = await fetch(`${t.url}/embed/v1/${appUuid}?origin=${encodeURIComponent(SHOP)}`);
    const boot = /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(
      await page.text(),
    )?.[1];
    const token = (JSON.parse(boot!) as TWidgetBoot).token;
    const visitor = (method: string, p: string, json?: unknown) =>
      t.call(method, `/api/widget/v1${p}`, {
        ...(json !== undefined && { json }),
        headers: { authorization: `Bearer ${token}` },
      });
    const sent = await visitor('POST', '/messages/', {
      conversation_uuid: null,
      message: 'Is the X200 under warranty?',
      page_url: `${SHOP}/x200`,
    });
    expect(sent.status).toBe(201);
    const room = sent.body.conversation.uuid as string;

    const [created] = await events('conversation.created', (d) => d.chatroom.uuid === room);
    expect(created!.chatroom).toMatchObject({ source: 'widget', started_on: `${SHOP}/x200` });
    const [question] = await events('message.created', (d) => d.message.uuid === sent.body.message.uuid);
    expect(question!.source).toBe('widget');
    expect(question!.message.sender_identifier).toMatch(/^visitor_/);
    const [finished] = await events('message.created', (d) => d.message.uuid === sent.body.answer.uuid);
    expect(finished!.message.status).toBe('complete');

    expect(
      (await visitor('POST', `/messages/${sent.body.answer.uuid}/feedback/`, { feedback: 'down' })).status,
    ).toBe(200);
    const [rated] = await events('feedback.created', (d) => d.message.uuid === sent.body.answer.uuid);
    expect(rated).toMatchObject({ chatroom_uuid: room, feedback: 'down' });

    const asked = await visitor('POST', `/conversations/${room}/handoff/`);
    expect(asked.status).toBe(200);
    const [handoff] = await events('handoff.requested', (d) => d.chatroom.uuid === room);
    expect(handoff!.chatroom).toMatchObject({ handled_by: 'human', waiting_since: asked.body.waiting_since });
    expect(handoff!.visitor_uuid).toBe(question!.message.sender_identifier.slice('visitor_'.length));
    // Asking again while waiting is no new request.
    expect((await visitor('POST', `/conversations/${room}/handoff/`)).status).toBe(200);

    // Nobody replies in time (the timeout job's work, run now): the assistant's notice is a message.
    const { rows: jobs } = await t.database.query<{ data: { chatroomId: number; waitingSince: string } }>(
      'SELECT data FROM pgboss.job WHERE name = $1',
      [HANDOFF_TIMEOUT_QUEUE],
    );
    expect(jobs).toHaveLength(1);
    await endUnansweredHandoff(t.app, jobs[0]!.data);
    const [notice] = await events(
      'message.created',
      (d) => d.chatroom_uuid === room && d.message.metadata.handoff_timeout === true,
    );
    expect(notice).toMatchObject({ source: 'widget', message: { sender_identifier: 'assistant' } });

    // The owner takes over: their message to the visitor is a message too.
    const reply = await send('Hello, I am here.', { chatroom_identifier: room, send_to_user: true });
    expect(reply.answer).toBeNull();
    const [takeover] = await events('message.created', (d) => d.message.uuid === reply.message.uuid);
    expect(takeover!.source).toBe('widget');
    expect(received('handoff.requested').filter((d) => d.chatroom.uuid === room)).toHaveLength(1);
  });

  it('public API: conversation.created and message.created for the question and the answer', async () => {
    const key = await t.call('POST', `/api/applications/${appUuid}/api-keys/`, {
      token: alice.token,
      json: { name: 'Backend' },
    });
    expect(key.status).toBe(201);
    const res = await t.call('POST', '/api/v1/chat/completions', {
      headers: { authorization: `Bearer ${key.body.key}` },
      json: { model: appUuid, messages: [{ role: 'user', content: 'What does the warranty cover?' }] },
    });
    expect(res.status).toBe(200);
    const room = res.body.conversation_id as string;
    const [created] = await events('conversation.created', (d) => d.chatroom.uuid === room);
    expect(created!.chatroom.source).toBe('api');
    const both = await events('message.created', (d) => d.chatroom_uuid === room, 2);
    // Deliveries go out side by side: their order is not the order of events.
    const question = both.find((d) => d.message.sender_identifier !== 'assistant');
    const answer = both.find((d) => d.message.sender_identifier === 'assistant');
    expect(question!.message.sender_identifier).toBe(`api_${key.body.uuid}`);
    expect(answer!.message).toMatchObject({ sender_identifier: 'assistant', status: 'complete' });
    expect(answer!.message.message).toBe(res.body.choices[0].message.content);
    expect(answer!.source).toBe('api');
  });

  it('knowledge: knowledge.item.ready for an indexed item, knowledge.item.failed for items that fail', async () => {
    const form = new FormData();
    form.append('items[0].type', 'text');
    form.append('items[0].title', 'Opening hours');
    form.append('items[0].value', 'The shop opens at nine on weekdays.');
    // An image that claims to be text (batched with small items), and an unreachable page (alone).
    form.append('items[1].type', 'file');
    form.append('items[1].file', new Blob([fixture('image.png')]), 'photo.txt');
    form.append('items[2].type', 'url');
    form.append('items[2].value', 'http://127.0.0.1:1/closed');
    const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, { token: alice.token, form });
    expect(res.status).toBe(201);
    const [text, photo, page] = res.body as Array<{ uuid: string }>;

    const [ready] = await events('knowledge.item.ready', (d) => d.item.uuid === text!.uuid);
    expect(ready!.item).toMatchObject({ status: 'ready', title: 'Opening hours', chunk_count: 1 });
    const listed = await t.call('GET', `/api/applications/${appUuid}/knowledge/`, { token: alice.token });
    expect(listed.body.find((i: { uuid: string }) => i.uuid === text!.uuid)).toEqual(ready!.item);
    const failed = await events(
      'knowledge.item.failed',
      (d) => [photo!.uuid, page!.uuid].includes(d.item.uuid),
      2,
    );
    const byUuid = new Map(failed.map((d) => [d.item.uuid, d.item]));
    expect(byUuid.get(photo!.uuid)).toMatchObject({
      status: 'failed',
      error: 'The file is named .txt but its content is an image.',
    });
    expect(byUuid.get(page!.uuid)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^Unreachable/),
    });
  });

  it('a stopped answer is announced once, whether no process had taken it or one was streaming it', async () => {
    const ask = async (message: string) => {
      const sent = await send(message);
      return { ...sent, answer: sent.answer! };
    };
    const stop = (sent: Awaited<ReturnType<typeof ask>>) =>
      t.call(
        'POST',
        `/api/applications/${appUuid}/chatrooms/${sent.chatroom.uuid}/messages/${sent.answer.uuid}/stop/`,
        { token: alice.token },
      );
    const stoppedEvents = (uuid: string) =>
      received('message.created').filter((d) => d.message.uuid === uuid && d.message.status === 'stopped');

    // Every answer slot of the process is busy: the answer waits, untaken, and is stopped so.
    const held: Array<{ release(): void }> = [];
    for (let slot = t.app.answers.reserve(); slot; slot = t.app.answers.reserve()) held.push(slot);
    const waiting = await ask('What does the warranty cover?');
    expect(waiting.answer.status).toBe('pending');
    expect((await stop(waiting)).body.status).toBe('stopped');
    for (const slot of held) slot.release();
    await events(
      'message.created',
      (d) => d.message.uuid === waiting.answer.uuid && d.message.status === 'stopped',
    );

    // A provider model streams slowly: the process streaming it stores what it had and announces it.
    await useProviderModel(t, alice.token, appUuid, { baseUrl: fake.url });
    fake.set({ reply: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), chunkDelayMs: 10 });
    const streaming = await ask('Tell me everything about the warranty');
    for (let i = 0; i < 200 && !fake.requests.some((r) => r.path === '/chat/completions'); i++)
      await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    expect((await stop(streaming)).body.status).toBe('stopped');
    const [stopped] = await events(
      'message.created',
      (d) => d.message.uuid === streaming.answer.uuid && d.message.status === 'stopped',
    );
    // What that process stored, as the API shows it.
    expect((await messagesOf(streaming.chatroom.uuid)).find((m) => m.uuid === streaming.answer.uuid)).toEqual(
      stopped!.message,
    );

    await new Promise((r) => setTimeout(r, 500));
    expect(stoppedEvents(waiting.answer.uuid)).toHaveLength(1);
    expect(stoppedEvents(streaming.answer.uuid)).toHaveLength(1);
    expect(received('message.created').filter((d) => d.message.uuid === streaming.answer.uuid)).toHaveLength(
      1,
    );
  });

  it('sends each event once, to the matching enabled webhooks only', async () => {
    // Anything late has arrived: every event was handed to the webhooks and every delivery ended.
    await productEventsSettled(t.app);
    await waitFor(
      async () =>
        (await t.database.query(`SELECT 1 FROM webhook_deliveries WHERE status = 'pending'`)).rows.length ===
        0,
      { what: 'every webhook delivery ended' },
    );
    for (const r of all.received) {
      expect(r.verifiedWith).toHaveLength(1);
      expect(ZWebhookPayload.safeParse(r.payload).success, r.body).toBe(true);
    }
    const types = new Set(all.received.map((r) => (r.payload as { type: string }).type));
    expect([...types].sort()).toEqual([...EVENTS].sort());
    const runs = received('message.created').map((d) => `${d.message.uuid}:${d.message.run}`);
    expect(new Set(runs).size).toBe(runs.length);
    const rooms = received('conversation.created').map((d) => d.chatroom.uuid);
    expect(new Set(rooms).size).toBe(rooms.length);
    const items = [...received('knowledge.item.ready'), ...received('knowledge.item.failed')].map(
      (d) => d.item.uuid,
    );
    expect(new Set(items).size).toBe(items.length);

    for (const { receiver, hook, token } of silent) {
      expect(receiver.received).toEqual([]);
      const log = await t.call('GET', `/api/webhooks/${hook}/deliveries/`, { token });
      expect(log.status).toBe(200);
      expect(log.body.deliveries).toEqual([]);
    }
  });
});
