import { randomBytes } from 'node:crypto';
import type { TWidgetBoot } from '@cairn/contracts/widget';
import type { Database } from '@cairn/db/client';
import { applications, messages } from '@cairn/db/schema';
import { openTestDatabase } from '@cairn/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DurableEventType, ProductEvents } from '../lib/product-events.ts';
import { applicationWith } from '../testing/chat-fixtures.ts';
import { productEventsSettled } from '../testing/product-events-settled.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { waitFor } from '../testing/wait-for.ts';
import { type Receiver, startReceiver } from '../testing/webhook-receiver.ts';

/**
 * The product events' outbox (decision 085): durable events are written with their change and
 * delivered after the commit; a process that committed and died before delivering leaves them to
 * the next one (its start-up sweep, or the periodic one), which delivers each exactly once here;
 * a change that rolls back tells nothing.
 */

const SHOP = 'https://shop.example.com';
const WARRANTY = { title: 'X200 manual', text: '# Warranty\n\nThe X200 has a three-year warranty.' };
/** Both processes open the secrets (the webhook's signing secret) with the same key, as a restart does. */
const secretKey = randomBytes(32).toString('base64url');

let database: Database;
let first: TestApp;
let second: TestApp;
let receiver: Receiver;
let alice: { token: string; user: { id: number } };
let appUuid: string;
let room: string;
/** What the second process's durable subscriber heard, in the order it heard it. */
const heard: Array<{ type: DurableEventType; createdAt: unknown; message?: MessageRow }> = [];
type MessageRow = ProductEvents['message.created']['message'];
const messageRow = async (db: TestApp['app']['db'], uuid: string) =>
  (await db.select().from(messages).where(eq(messages.uuid, uuid)))[0];

const count = async (text: string, values: unknown[] = []) =>
  (await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${text}) q`, values)).rows[0]!.n;
const outboxRows = () => count('SELECT 1 FROM product_outbox');
const handoffNotifications = () =>
  count(
    `SELECT 1 FROM notifications n JOIN chatrooms c ON c.id = n.chatroom_id WHERE c.uuid = $1 AND n.event = 'handoff_requested'`,
    [room],
  );
const hooksOf = (type: string) =>
  receiver.received.filter((r) => (r.payload as { type: string }).type === type).length;
const analytics = async (t: TestApp) =>
  (await t.call('GET', `/api/applications/${appUuid}/analytics/`, { token: alice.token })).body.totals as {
    conversations: number;
    handoffs_requested: number;
  };

beforeAll(async () => {
  database = await openTestDatabase();
  // The process that "crashes": it commits every change (and its outbox row) and delivers nothing.
  first = await startTestApp({ secretKey }, { database, productEvents: { deliver: false } });
  alice = await first.signUp();
  appUuid = (await applicationWith({ ...first, database }, alice.token, [WARRANTY])).uuid;
  const widget = await first.call('PATCH', `/api/applications/${appUuid}/widget/`, {
    token: alice.token,
    json: { enabled: true, allowed_origins: [SHOP], takeover: { enabled: true, email_owner: false } },
  });
  expect(widget.status).toBe(200);
  receiver = await startReceiver();
  const hook = await first.call('POST', '/api/webhooks/', {
    token: alice.token,
    json: {
      url: `${receiver.url}/hook`,
      events: ['conversation.created', 'handoff.requested'],
      application_uuid: appUuid,
    },
  });
  expect(hook.status).toBe(201);
  receiver.secrets.push(hook.body.secret);
}, 60_000);

afterAll(async () => {
  await first?.close();
  await second?.close();
  await receiver?.close();
  await database?.close();
});

describe('the product events outbox', () => {
  it('delivers what a process committed and never delivered, once, from the next process on the same data', async () => {
    const page = await fetch(`${first.url}/embed/v1/${appUuid}?origin=${encodeURIComponent(SHOP)}`);
    const boot = /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(
      await page.text(),
    )?.[1];
    const visitor = (method: string, p: string, json?: unknown) =>
      first.call(method, `/api/widget/v1${p}`, {
        ...(json !== undefined && { json }),
        headers: { authorization: `Bearer ${(JSON.parse(boot!) as TWidgetBoot).token}` },
      });
    const sent = await visitor('POST', '/messages/', { conversation_uuid: null, message: 'Warranty?' });
    expect(sent.status).toBe(201);
    room = sent.body.conversation.uuid as string;
    // The answer ends (its final row and event are written by one statement) before the handoff.
    const answered = await waitFor(async () => {
      const { rows } = await database.query<{ uuid: string }>(
        `SELECT m.uuid FROM messages m JOIN chatrooms c ON c.id = m.chatroom_id
          WHERE c.uuid = $1 AND m.sender_identifier = 'assistant' AND m.status = 'complete'`,
        [room],
      );
      return rows[0]?.uuid;
    });
    expect((await visitor('POST', `/conversations/${room}/handoff/`)).status).toBe(200);
    // The change committed, and its events with it; nothing was delivered.
    await productEventsSettled(first.app);
    expect(await outboxRows()).toBeGreaterThan(0);
    expect(receiver.received).toHaveLength(0);
    expect(await handoffNotifications()).toBe(0);
    expect(await analytics(first)).toMatchObject({ conversations: 0, handoffs_requested: 0 });
    // An application deleted: its clean-up (stored files, Telegram webhooks) is a durable event too.
    const doomed = await applicationWith({ ...first, database }, alice.token, [WARRANTY]);
    expect(
      (await first.call('DELETE', `/api/applications/${doomed.uuid}/`, { token: alice.token })).status,
    ).toBe(204);
    // The process stops without delivering (its database stays, as a data dir does after kill -9).
    await first.app.close();

    second = await startTestApp(
      { secretKey },
      {
        database,
        beforeListen(app) {
          const hear = (type: DurableEventType) =>
            app.events.onDurable(type, async (payload) => {
              const { chatroom, message } = payload as Partial<ProductEvents['message.created']>;
              heard.push({ type, createdAt: chatroom?.createdAt, message });
            });
          hear('conversation.created');
          hear('message.created');
          hear('handoff.requested');
          hear('applications.deleted');
        },
      },
    );
    await productEventsSettled(second.app);
    // On PGlite the start-up sweep took every row; on PostgreSQL it leaves rows younger than the
    // grace period (another process may be delivering them), which the periodic sweep takes once
    // it has passed. Then nothing is left to deliver.
    await second.app.events.sweep(0);
    expect(await second.app.events.sweep(0)).toBe(0);
    await productEventsSettled(second.app);
    expect(await outboxRows()).toBe(0);

    // The webhook deliveries are jobs: wait for both, then check none came twice.
    const deadline = Date.now() + 15_000;
    while (hooksOf('handoff.requested') < 1 || hooksOf('conversation.created') < 1) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(hooksOf('conversation.created')).toBe(1);
    expect(hooksOf('handoff.requested')).toBe(1);
    expect(await handoffNotifications()).toBe(1);
    expect(await analytics(second)).toMatchObject({ conversations: 1, handoffs_requested: 1 });

    // Read back from JSON, the rows' dates are dates again.
    const [stored] = (
      await database.query<{ created_at: Date }>('SELECT created_at FROM chatrooms WHERE uuid = $1', [room])
    ).rows;
    const handoff = heard.find((h) => h.type === 'handoff.requested')!;
    expect(handoff.createdAt).toBeInstanceOf(Date);
    expect((handoff.createdAt as Date).getTime()).toBe(new Date(stored!.created_at).getTime());
    // In emit order: the operation told the conversation, then its first message, then (later) the handoff.
    const order = heard.map((h) => (h.type === 'message.created' ? `message:${h.message!.message}` : h.type));
    expect(order.indexOf('conversation.created')).toBe(0);
    expect(order.indexOf('message:Warranty?')).toBe(1);
    expect(order.indexOf('handoff.requested')).toBeGreaterThan(1);
    expect(order.filter((type) => type === 'applications.deleted')).toHaveLength(1);
    // The answer's row, written as JSON by SQL with its final state, reads back as drizzle reads it.
    const answer = heard.find((h) => h.message?.uuid === answered);
    expect(answer?.message).toEqual(await messageRow(second.app.db, answered!));
    expect(answer?.message?.createdAt).toBeInstanceOf(Date);
  });

  it("hands the answer's final row to durable subscribers in process as drizzle returns it", async () => {
    const finals: MessageRow[] = [];
    second.app.events.onDurable('message.created', async ({ message }) => {
      if (message.senderIdentifier === 'assistant') finals.push(message);
    });
    const sent = await second.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
      token: alice.token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'Warranty?',
        sender_identifier: `reg_${alice.user.id}`,
      },
    });
    expect(sent.status).toBe(201);
    const final = (await waitFor(() => finals.find((m) => m.uuid === sent.body.answer.uuid)))!;
    expect(final.status).toBe('complete');
    expect(final).toEqual(await messageRow(second.app.db, final.uuid));
    await productEventsSettled(second.app);
    expect(await outboxRows()).toBe(0);
  });

  it('writes nothing and tells nothing when the change rolls back', async () => {
    const t = second;
    const told: string[] = [];
    t.app.events.on('integration.failed', async ({ title }) => {
      told.push(`live:${title}`);
    });
    t.app.events.onDurable('integration.failed', async ({ title }) => {
      told.push(`durable:${title}`);
    });
    const title = 'Rolled back';
    await expect(
      t.app.events.transaction(async (tx, emit) => {
        await tx.update(applications).set({ name: 'Renamed' }).where(eq(applications.uuid, appUuid));
        emit('integration.failed', { ownerId: alice.user.id, title, reason: 'never happened' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await productEventsSettled(t.app);
    expect(await outboxRows()).toBe(0);
    expect(await count(`SELECT 1 FROM applications WHERE name = 'Renamed'`)).toBe(0);
    expect(told).toEqual([]);
    expect(await count(`SELECT 1 FROM notifications WHERE title = $1`, [title])).toBe(0);

    // The same, committed: live first (before `transaction` resolves), the durable one after.
    await t.app.events.transaction(async (_tx, emit) => {
      emit('integration.failed', { ownerId: alice.user.id, title: 'Kept', reason: 'it happened' });
    });
    expect(told).toEqual(['live:Kept']);
    await productEventsSettled(t.app);
    expect(told).toEqual(['live:Kept', 'durable:Kept']);
    expect(await count(`SELECT 1 FROM notifications WHERE title = 'Kept'`)).toBe(1);
    expect(await outboxRows()).toBe(0);
  });
});
