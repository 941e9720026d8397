import { randomUUID } from 'node:crypto';
import { DEFAULT_NOTIFICATION_PROFILE, type TNotification } from '@cairn/contracts/notifications';
import { WEBHOOK_EVENT_TYPES } from '@cairn/contracts/webhooks';
import { notifications, webhookDeliveries, webhooks } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../lib/clock.ts';
import { readableMail } from '../../testing/mail.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { type Receiver, startReceiver } from '../../testing/webhook-receiver.ts';
import { GONE_REASON, recordOutcome } from './deliver-webhook.ts';
import { DEFAULT_DELIVERY_SETTINGS, nextDelayMs, parseRetryAfter } from './delivery-settings.ts';
import { emitWebhookEvent } from './emit-webhook-event.ts';
import { sanitizeExcerpt } from './post-webhook.ts';
import { DELIVERY_QUEUE } from './queue-deliveries.ts';
import { sweepDeliveries } from './sweep-deliveries.ts';
import { signatureHeader } from './webhook-signing.ts';

let t: TestApp;
let alice: { token: string; user: { id: number } };
let bob: { token: string; user: { id: number } };
let aliceApp: string;
let otherAliceApp: string;
let bobApp: string;
const receivers: Receiver[] = [];

/** A short schedule so retries come in milliseconds, not minutes. */
const FAST = [150, 150, 150];

const disabledMails = () =>
  t
    .outbox()
    .filter((m) => m.subject === 'A webhook was disabled')
    .map((m) => readableMail(m.raw));
/** Alice's notification profile: e-mails at once, so a disabled webhook's e-mail needs no waiting. */
const ALICE_PROFILE = { ...DEFAULT_NOTIFICATION_PROFILE, email_delay_minutes: 0 };

const createApp = async (token: string, name: string) =>
  (await t.call('POST', '/api/applications/', { token, json: { name } })).body.uuid as string;

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** Creates a webhook to `r` and teaches the receiver its secret. */
async function createHook(r: Receiver, json: Record<string, unknown> = {}, token = alice.token) {
  const res = await t.call('POST', '/api/webhooks/', {
    token,
    json: { url: `${r.url}/hook`, events: ['message.created'], ...json },
  });
  expect(res.status).toBe(201);
  r.secrets.push(res.body.secret);
  return res.body as { uuid: string; secret: string };
}

const deliveries = async (hook: string, token = alice.token) =>
  (await t.call('GET', `/api/webhooks/${hook}/deliveries/`, { token })).body.deliveries as Array<{
    uuid: string;
    message_id: string;
    status: string;
    attempt_count: number;
    next_attempt_at: string | null;
    event_type: string;
    payload: { type: string; data: unknown };
    attempts: Array<{
      number: number;
      status_code: number | null;
      ok: boolean;
      error: string | null;
      response_excerpt: string | null;
    }>;
  }>;

const message = (text: string) => ({
  id: 1,
  uuid: '7d2c6a38-8a57-4b2f-9d8a-3f2f9f3e7a11',
  sender_identifier: 'reg_1',
  message: text,
  metadata: {},
  status: 'complete' as const,
  run: 1,
  feedback: null,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
});
const messageEvent = (applicationUuid: string, text = 'Hello') => ({
  type: 'message.created' as const,
  data: {
    application_uuid: applicationUuid,
    chatroom_uuid: '0b8a2f4e-5d1c-4c3a-9e2b-1f0a9d8c7b6a',
    source: 'api' as const,
    message: message(text),
  },
});

const itemFailedEvent = (applicationUuid: string) => ({
  type: 'knowledge.item.failed' as const,
  data: {
    application_uuid: applicationUuid,
    item: {
      uuid: randomUUID(),
      type: 'url' as const,
      title: 'Pricing',
      source: 'https://example.com/pricing',
      status: 'failed' as const,
      progress: 0,
      error: 'Unreachable: the server answered HTTP 404 (Not Found).',
      retryable: true,
      mime_type: null,
      size_bytes: null,
      language: null,
      chunk_count: 0,
      enabled: true,
      qa: null,
      read_with_ocr: false,
      indexed_at: null,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      refresh_interval_hours: null,
      last_checked_at: null,
      last_changed_at: null,
      next_check_at: null,
      site_root: null,
      site: null,
    },
  },
});

beforeAll(async () => {
  t = await startTestApp(
    {},
    {
      beforeListen: (app) => {
        Object.assign(app.webhooks.settings, { retryDelaysMs: FAST, jitter: 0 });
      },
    },
  );
  alice = await t.signUp();
  bob = await t.signUp();
  expect(
    (await t.call('PUT', '/api/notification-profile/', { token: alice.token, json: ALICE_PROFILE })).status,
  ).toBe(200);
  aliceApp = await createApp(alice.token, 'Support');
  otherAliceApp = await createApp(alice.token, 'Sales');
  bobApp = await createApp(bob.token, 'Bob');
});
afterEach(() => {
  Object.assign(t.app.webhooks.settings, { retryDelaysMs: FAST, jitter: 0 });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t.close();
});

describe('signing and schedule (units)', () => {
  it('signs as the Standard Webhooks library verifies, and as its own signer signs', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const body = '{"type":"webhook.ping"}';
    const ts = Math.floor(Date.now() / 1000);
    const header = signatureHeader('msg_1', ts, body, [secret]);
    const wh = new Webhook(secret);
    expect(header).toBe(wh.sign('msg_1', new Date(ts * 1000), body));
    expect(
      wh.verify(body, {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(ts),
        'webhook-signature': header,
      }),
    ).toEqual({ type: 'webhook.ping' });
  });

  it('follows the schedule with jitter, honours Retry-After and stops when spent', () => {
    const s = DEFAULT_DELIVERY_SETTINGS;
    expect(s.retryDelaysMs.map((ms) => ms / 1000)).toEqual([
      5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400,
    ]);
    expect(nextDelayMs(s, 1, null, () => 0)).toBe(4500);
    expect(nextDelayMs(s, 1, null, () => 1)).toBe(5500);
    expect(nextDelayMs(s, 1, 120_000, () => 0.5)).toBe(120_000);
    expect(nextDelayMs(s, 2, 1000, () => 0.5)).toBe(300_000);
    expect(nextDelayMs(s, 1, 10 * 86_400_000, () => 0.5)).toBe(86_400_000);
    expect(nextDelayMs(s, 10, null)).toBeNull();
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(58_000);
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('keeps at most 1 KB of an answer, as text without control characters', () => {
    expect(sanitizeExcerpt(Buffer.from('ok\u0000\u001b[31m\tfine\n'))).toBe('ok[31m\tfine\n');
    expect(sanitizeExcerpt(Buffer.from('é'.repeat(600)).subarray(0, 1024))).toBe('é'.repeat(512));
    expect(sanitizeExcerpt(Buffer.from('é'.repeat(600)).subarray(0, 1023))).toBe('é'.repeat(511));
  });
});

describe('webhooks API', () => {
  it('creates a webhook with a secret shown once and stored sealed, lists, reads, changes and deletes it', async () => {
    const r = await receiver();
    const res = await t.call('POST', '/api/webhooks/', {
      token: alice.token,
      json: {
        url: `${r.url}/hook`,
        events: ['message.created', 'feedback.created', 'message.created'],
        application_uuid: aliceApp,
        description: '  CRM sync  ',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: `${r.url}/hook`,
      events: ['message.created', 'feedback.created'],
      application_uuid: aliceApp,
      description: 'CRM sync',
      enabled: true,
      disabled_reason: null,
      last_delivery: null,
      previous_secret_expires_at: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
    const [row] = await t.app.db.select().from(webhooks).where(eq(webhooks.uuid, res.body.uuid));
    expect(row!.secretCiphertext.startsWith('v1.')).toBe(true);
    expect(row!.secretCiphertext).not.toContain(res.body.secret.slice(6, 20));

    const list = await t.call('GET', '/api/webhooks/', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.find((w: { uuid: string }) => w.uuid === res.body.uuid)).toEqual({
      ...res.body,
      secret: undefined,
    });
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);

    const path = `/api/webhooks/${res.body.uuid}/`;
    expect((await t.call('GET', path, { token: alice.token })).body.secret).toBeUndefined();
    const patched = await t.call('PATCH', path, {
      token: alice.token,
      json: { events: ['knowledge.item.ready'], application_uuid: null, description: 'All apps' },
    });
    expect(patched).toMatchObject({
      status: 200,
      body: { events: ['knowledge.item.ready'], application_uuid: null, description: 'All apps' },
    });
    const paused = await t.call('PATCH', path, { token: alice.token, json: { enabled: false } });
    expect(paused.body).toMatchObject({ enabled: false, disabled_reason: 'Paused by you.' });
    expect((await t.call('POST', `${path}test/`, { token: alice.token })).status).toBe(409);
    const resumed = await t.call('PATCH', path, { token: alice.token, json: { enabled: true } });
    expect(resumed.body).toMatchObject({ enabled: true, disabled_reason: null });

    expect((await t.call('DELETE', path, { token: alice.token })).status).toBe(204);
    expect((await t.call('GET', path, { token: alice.token })).status).toBe(404);
    expect((await t.call('DELETE', path, { token: alice.token })).status).toBe(404);
  });

  it("answers 404 for someone else's webhook and 400 for someone else's application", async () => {
    const r = await receiver();
    const hook = await createHook(r);
    const base = `/api/webhooks/${hook.uuid}`;
    const asBob = { token: bob.token };
    expect((await t.call('GET', `${base}/`, asBob)).status).toBe(404);
    expect((await t.call('PATCH', `${base}/`, { ...asBob, json: { description: 'mine' } })).status).toBe(404);
    expect((await t.call('DELETE', `${base}/`, asBob)).status).toBe(404);
    expect((await t.call('POST', `${base}/test/`, asBob)).status).toBe(404);
    expect((await t.call('POST', `${base}/rotate-secret/`, asBob)).status).toBe(404);
    expect((await t.call('GET', `${base}/deliveries/`, asBob)).status).toBe(404);
    const ping = await t.call('POST', `${base}/test/`, { token: alice.token });
    expect((await t.call('POST', `${base}/deliveries/${ping.body.uuid}/retry/`, asBob)).status).toBe(404);
    expect((await t.call('GET', '/api/webhooks/', asBob)).body).toEqual([]);
    // Bob's webhook cannot name Alice's application, nor Alice's Bob's.
    const foreign = await t.call('POST', '/api/webhooks/', {
      token: bob.token,
      json: { url: `${r.url}/b`, events: ['message.created'], application_uuid: aliceApp },
    });
    expect(foreign).toMatchObject({
      status: 400,
      body: { errors: { application_uuid: ['No such application.'] } },
    });
    const patch = await t.call('PATCH', `${base}/`, {
      token: alice.token,
      json: { application_uuid: bobApp },
    });
    expect(patch).toMatchObject({
      status: 400,
      body: { errors: { application_uuid: ['No such application.'] } },
    });
    // Another owner's delivery id under one's own webhook is not found either.
    const bobHook = await createHook(r, {}, bob.token);
    const bobPing = await t.call('POST', `/api/webhooks/${bobHook.uuid}/test/`, asBob);
    expect(
      (await t.call('POST', `${base}/deliveries/${bobPing.body.uuid}/retry/`, { token: alice.token })).status,
    ).toBe(404);
    expect((await t.call('GET', '/api/webhooks/')).status).toBe(401);
  });

  it('refuses bad input with documented 400s and forged ids with 404s, never a 500', async () => {
    const post = (json: unknown) => t.call('POST', '/api/webhooks/', { token: alice.token, json });
    const ok = { url: 'https://example.com/hook', events: ['message.created'] };
    const cases: Array<[unknown, string]> = [
      [{ ...ok, url: 42 }, 'url'],
      [{ ...ok, url: 'ftp://example.com/x' }, 'url'],
      [{ ...ok, url: 'https://user:pw@example.com/x' }, 'url'],
      [{ ...ok, url: 'not a url' }, 'url'],
      [{ ...ok, url: 'https://example.com/\u0000' }, 'url'],
      [{ ...ok, url: `https://example.com/${'a'.repeat(2000)}` }, 'url'],
      [{ ...ok, events: [] }, 'events'],
      [{ ...ok, events: ['message.deleted'] }, 'events'],
      [{ ...ok, events: 'message.created' }, 'events'],
      [{ ...ok, description: 'line\u0007bell' }, 'description'],
      [{ ...ok, description: 'x'.repeat(501) }, 'description'],
      [{ ...ok, description: 7 }, 'description'],
      [{ ...ok, application_uuid: 'not-a-uuid' }, 'application_uuid'],
      [{ ...ok, application_uuid: '00000000-0000-4000-8000-000000000000' }, 'application_uuid'],
    ];
    for (const [json, field] of cases) {
      const res = await post(json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe('invalid');
      // A list's item is named by its index: `events.0`.
      expect(Object.keys(res.body.errors).map((k) => k.split('.')[0])).toContain(field);
    }
    expect((await post(null)).status).toBe(400);
    expect((await t.call('POST', '/api/webhooks/', { token: alice.token, raw: '{"url":' })).status).toBe(400);
    const huge = await t.call('POST', '/api/webhooks/', {
      token: alice.token,
      json: { ...ok, description: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);

    for (const id of ['nope', '1', "1' OR 1=1", '00000000-0000-4000-8000-000000000000']) {
      const path = `/api/webhooks/${encodeURIComponent(id)}`;
      expect((await t.call('GET', `${path}/`, { token: alice.token })).status).toBe(404);
      expect((await t.call('POST', `${path}/test/`, { token: alice.token })).status).toBe(404);
      expect((await t.call('GET', `${path}/deliveries/`, { token: alice.token })).status).toBe(404);
    }
    const r = await receiver();
    const hook = await createHook(r);
    const base = `/api/webhooks/${hook.uuid}`;
    expect((await t.call('PATCH', `${base}/`, { token: alice.token, json: {} })).status).toBe(400);
    expect((await t.call('PATCH', `${base}/`, { token: alice.token, json: { enabled: 'yes' } })).status).toBe(
      400,
    );
    expect((await t.call('GET', `${base}/deliveries/?limit=abc`, { token: alice.token })).status).toBe(400);
    expect((await t.call('GET', `${base}/deliveries/?limit=1000`, { token: alice.token })).status).toBe(400);
    expect(
      (
        await t.call('GET', `${base}/deliveries/?before=00000000-0000-4000-8000-000000000000`, {
          token: alice.token,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.call('POST', `${base}/deliveries/00000000-0000-4000-8000-000000000000/retry/`, {
          token: alice.token,
        })
      ).status,
    ).toBe(404);
    expect((await t.call('POST', `${base}/deliveries/x/retry/`, { token: alice.token })).status).toBe(404);
  });

  it('refuses a literal private address at creation when private URLs are not allowed', async () => {
    const strict = await startTestApp({ allowPrivateUrls: false });
    try {
      const owner = await strict.signUp();
      const urls = [
        'http://127.0.0.1:9/hook',
        'http://[::1]/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://0x7f000001/hook',
        'http://2130706433/hook',
        'http://10.0.0.8/hook',
        'http://192.168.1.20/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[fd00::1]/hook',
        'http://100.100.100.200/hook',
        'http://0.0.0.0/hook',
        'http://localhost:8080/hook',
        'http://api.localhost/hook',
      ];
      for (const url of urls) {
        const res = await strict.call('POST', '/api/webhooks/', {
          token: owner.token,
          json: { url, events: ['message.created'] },
        });
        expect(res.status, url).toBe(400);
        expect(res.body.errors.url[0], url).toMatch(/public|Blocked/);
      }
      // A name is judged where it is resolved, at delivery: one that resolves (today) to loopback
      // is refused there, and the receiver gets nothing.
      const r = await receiver();
      const created = await strict.call('POST', '/api/webhooks/', {
        token: owner.token,
        json: { url: 'https://hooks.example.com/in', events: ['message.created'] },
      });
      expect(created.status).toBe(201);
      await strict.app.db
        .update(webhooks)
        .set({ url: `${r.url.replace('127.0.0.1', '[::ffff:7f00:1]')}/hook` })
        .where(eq(webhooks.uuid, created.body.uuid));
      await strict.call('POST', `/api/webhooks/${created.body.uuid}/test/`, { token: owner.token });
      const log = await waitFor(
        async () =>
          (await strict.call('GET', `/api/webhooks/${created.body.uuid}/deliveries/`, { token: owner.token }))
            .body.deliveries,
        { until: (d: Array<{ attempts: Array<{ error: string }> }>) => d[0]!.attempts.length > 0 },
      );
      expect(log[0]!.attempts[0]).toMatchObject({ ok: false, status_code: null });
      expect(log[0]!.attempts[0]!.error).toMatch(/Blocked address: 127\.0\.0\.1 is a loopback address/);
      expect(r.received).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('OpenAPI', () => {
  it("documents every event's payload (the delivery log's `payload`)", async () => {
    const doc = await t.call('GET', '/api/docs/json');
    const op = doc.body.paths['/api/webhooks/{webhookId}/deliveries/'].get;
    const schema = JSON.stringify(op.responses['200']);
    for (const type of WEBHOOK_EVENT_TYPES) expect(schema).toContain(`"${type}"`);
    for (const field of ['chatroom', 'visitor_uuid', 'feedback', 'item', 'sender_identifier']) {
      expect(schema).toContain(`"${field}"`);
    }
    expect(doc.body.paths['/api/webhooks/'].post.description).toContain('webhook-signature');
  });
});

describe('deliveries', () => {
  it('sends a signed ping that the standardwebhooks library verifies, and logs it', async () => {
    const r = await receiver();
    r.script.push({ status: 200, body: `thanks\u0000 ${'x'.repeat(2000)}` });
    const hook = await createHook(r);
    const ping = await t.call('POST', `/api/webhooks/${hook.uuid}/test/`, { token: alice.token });
    expect(ping).toMatchObject({ status: 202, body: { event_type: 'webhook.ping', status: 'pending' } });
    const [got] = await r.waitFor(1);
    expect(got!.path).toBe('/hook');
    expect(got!.verifiedWith).toEqual([hook.secret]);
    expect(got!.payload).toMatchObject({
      type: 'webhook.ping',
      data: { webhook_uuid: hook.uuid, message: expect.any(String) },
    });
    expect(got!.headers['webhook-id']).toBe(ping.body.message_id);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['user-agent']).toMatch(/^CairnWebhooks\//);
    expect(got!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const [logged] = await waitFor(() => deliveries(hook.uuid), {
      until: (d) => d[0]?.status === 'succeeded',
    });
    expect(logged).toMatchObject({ status: 'succeeded', attempt_count: 1, next_attempt_at: null });
    expect(logged!.attempts).toHaveLength(1);
    expect(logged!.attempts[0]).toMatchObject({ number: 1, status_code: 200, ok: true, error: null });
    expect(logged!.attempts[0]!.response_excerpt).toBe(`thanks ${'x'.repeat(1024 - 8)}`);
    const listed = await t.call('GET', `/api/webhooks/${hook.uuid}/`, { token: alice.token });
    expect(listed.body.last_delivery).toMatchObject({ status: 'succeeded', status_code: 200, error: null });
  });

  it('delivers an event to the webhooks that chose it, for their application only', async () => {
    const all = await receiver();
    const support = await receiver();
    const feedbackOnly = await receiver();
    const bobs = await receiver();
    const hAll = await createHook(all);
    await createHook(support, { application_uuid: aliceApp });
    await createHook(feedbackOnly, { events: ['feedback.created'] });
    await createHook(bobs, {}, bob.token);

    // Alice's webhooks of earlier tests want message.created too: they count, her other ones do not.
    const before = await emitWebhookEvent(t.app, alice.user.id, messageEvent(otherAliceApp, 'To sales'));
    expect(await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp, 'To support'))).toBe(
      before + 1,
    );
    await all.waitFor(2);
    await support.waitFor(1);
    const texts = (rs: Receiver) =>
      rs.received
        .map((x) => (x.payload as { data: { message: { message: string } } }).data.message.message)
        .sort();
    expect(texts(all)).toEqual(['To sales', 'To support']);
    expect(texts(support)).toEqual(['To support']);
    expect(all.received.every((x) => x.verifiedWith.length === 1)).toBe(true);
    expect(all.received[0]!.payload).toMatchObject({
      type: 'message.created',
      timestamp: expect.any(String),
      data: { source: 'api', chatroom_uuid: expect.any(String) },
    });
    await new Promise((res) => setTimeout(res, 300));
    expect(feedbackOnly.received).toEqual([]);
    expect(bobs.received).toEqual([]);
    const logged = await deliveries(hAll.uuid);
    expect(logged.map((d) => d.event_type)).toEqual(['message.created', 'message.created']);
    expect(logged[0]!.payload.type).toBe('message.created');

    // Data that breaks its contract is refused (and logged), never sent half-formed.
    const bad = { type: 'message.created' as const, data: { application_uuid: aliceApp } };
    expect(await emitWebhookEvent(t.app, alice.user.id, bad as never)).toBe(0);
  });

  it('retries a failing receiver with the same webhook-id until it succeeds', async () => {
    const r = await receiver();
    r.script.push({ status: 500, body: 'boom' }, { status: 429 }, { status: 204 });
    const hook = await createHook(r);
    await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp));
    const got = await r.waitFor(3);
    expect(new Set(got.map((x) => x.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((x) => x.body)).size).toBe(1);
    expect(got.every((x) => x.verifiedWith.length === 1)).toBe(true);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(140);
    const [d] = await waitFor(() => deliveries(hook.uuid), { until: (l) => l[0]?.status === 'succeeded' });
    expect(d!.attempts.map((a) => [a.number, a.status_code, a.ok])).toEqual([
      [1, 500, false],
      [2, 429, false],
      [3, 204, true],
    ]);
    expect(d!.attempts[0]).toMatchObject({
      error: 'HTTP 500 Internal Server Error',
      response_excerpt: 'boom',
    });
    const after = await t.call('GET', `/api/webhooks/${hook.uuid}/`, { token: alice.token });
    expect(after.body.last_delivery).toMatchObject({ status: 'succeeded', status_code: 204 });
  });

  it('gives up when the schedule is spent, and resends one on request with the same id', async () => {
    const r = await receiver();
    r.script.push({ status: 500 }, { status: 502 }, { status: 503 }, { status: 504 });
    const hook = await createHook(r);
    await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp));
    const [failed] = await waitFor(() => deliveries(hook.uuid), { until: (l) => l[0]?.status === 'failed' });
    expect(failed!.attempt_count).toBe(FAST.length + 1);
    expect(failed!.next_attempt_at).toBeNull();
    expect(r.received).toHaveLength(4);
    // The webhook itself says how its last attempt went, and why it failed (its card shows it),
    // in the list as in the single read.
    const lastFailed = { status: 'failed', status_code: 504, error: 'HTTP 504 Gateway Timeout' };
    const list = await t.call('GET', '/api/webhooks/', { token: alice.token });
    expect(list.body.find((w: { uuid: string }) => w.uuid === hook.uuid).last_delivery).toMatchObject(
      lastFailed,
    );
    expect(
      (await t.call('GET', `/api/webhooks/${hook.uuid}/`, { token: alice.token })).body.last_delivery,
    ).toMatchObject(lastFailed);
    const retried = await t.call('POST', `/api/webhooks/${hook.uuid}/deliveries/${failed!.uuid}/retry/`, {
      token: alice.token,
    });
    expect(retried).toMatchObject({ status: 202, body: { status: 'pending', uuid: failed!.uuid } });
    await r.waitFor(5);
    expect(r.received[4]!.headers['webhook-id']).toBe(failed!.message_id);
    const [done] = await waitFor(() => deliveries(hook.uuid), { until: (l) => l[0]?.status === 'succeeded' });
    expect(done!.attempts).toHaveLength(5);
  });

  it('keeps delivering to others while a receiver holds its request open', async () => {
    const slow = await receiver();
    slow.script.push('hang');
    const slowHook = await createHook(slow);
    expect(
      (await t.call('POST', `/api/webhooks/${slowHook.uuid}/test/`, { token: alice.token })).status,
    ).toBe(202);
    await slow.waitFor(1);
    const fast = await receiver();
    const fastHook = await createHook(fast);
    expect(
      (await t.call('POST', `/api/webhooks/${fastHook.uuid}/test/`, { token: alice.token })).status,
    ).toBe(202);
    // Well inside the slow attempt's 15 s timeout: the slow one is still waiting for its answer.
    await fast.waitFor(1, 5000);
    expect((await deliveries(slowHook.uuid))[0]).toMatchObject({ status: 'pending', attempt_count: 0 });
  });

  it('honours Retry-After on 503 even when the schedule says sooner', async () => {
    const r = await receiver();
    r.script.push({ status: 503, headers: { 'retry-after': '2' } });
    await createHook(r);
    await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp));
    const got = await r.waitFor(2, 10_000);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(1900);
  });

  it('does not follow a redirect: the target gets nothing and the attempt fails', async () => {
    const target = await receiver();
    const r = await receiver();
    r.script.push(
      { status: 307, headers: { location: `${target.url}/elsewhere` } },
      { status: 301, headers: { location: `${target.url}/x` } },
    );
    Object.assign(t.app.webhooks.settings, { retryDelaysMs: [100] });
    const hook = await createHook(r);
    await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp));
    const [d] = await waitFor(() => deliveries(hook.uuid), { until: (l) => l[0]?.status === 'failed' });
    expect(d!.attempts.map((a) => a.status_code)).toEqual([307, 301]);
    expect(d!.attempts[0]!.error).toMatch(/redirects are not followed/);
    expect(target.received).toEqual([]);
  });

  it('disables the webhook on 410 Gone and e-mails the owner through the notification profile', async () => {
    const r = await receiver();
    r.script.push({ status: 410 });
    const hook = await createHook(r);
    await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp));
    await r.waitFor(1);
    const after = await waitFor(
      async () => (await t.call('GET', `/api/webhooks/${hook.uuid}/`, { token: alice.token })).body,
      { until: (b) => b.enabled === false },
    );
    expect(after.disabled_reason).toBe(GONE_REASON);
    const [d] = await deliveries(hook.uuid);
    expect(d).toMatchObject({ status: 'failed', attempt_count: 1 });
    // Nothing more is recorded or sent while it is disabled.
    await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp));
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(1);
    expect(await deliveries(hook.uuid)).toHaveLength(1);
    const mail = await waitFor(async () => disabledMails().filter((m) => m.includes(`${r.url}/hook`)), {
      until: (m) => m.length > 0,
    });
    expect(mail).toHaveLength(1);
    expect(mail[0]).toContain(GONE_REASON);
    expect(mail[0]).toContain('/settings/integrations');
    // Like every notification e-mail: one-click unsubscribe from this event's e-mails (RFC 8058).
    expect(mail[0]).toMatch(/^List-Unsubscribe: <.+\/api\/notifications\/unsubscribe\/\?token=cnu1\..+>$/m);
    expect(mail[0]).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  });

  it('disables a webhook that has failed for the whole failure window and e-mails its owner', async () => {
    const r = await receiver();
    for (let i = 0; i < 10; i++) r.script.push({ status: 500 });
    const hook = await createHook(r);
    Object.assign(t.app.webhooks.settings, {
      retryDelaysMs: [100, 100, 100, 100, 100],
      disableAfterFailingMs: 250,
    });
    // The failure window runs on the webhooks' clock: it stands still until the first failure is
    // recorded, then moves past the window, so the next attempt is the one that disables the webhook.
    const start = Date.now();
    let offsetMs = 0;
    t.app.webhooks.clock = () => new Date(start + offsetMs);
    try {
      await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp));
      await waitFor(() => deliveries(hook.uuid), { until: (l) => (l[0]?.attempt_count ?? 0) >= 1 });
      offsetMs = 250;
      const after = await waitFor(
        async () => (await t.call('GET', `/api/webhooks/${hook.uuid}/`, { token: alice.token })).body,
        { until: (b) => b.enabled === false },
      );
      expect(after.disabled_reason).toMatch(/^Every delivery failed for/);
      expect(r.received.length).toBeGreaterThanOrEqual(2);
      expect(r.received.length).toBeLessThan(6);
      const [d] = await deliveries(hook.uuid);
      expect(d!.status).toBe('failed');
      const mail = await waitFor(async () => disabledMails().filter((m) => m.includes(`${r.url}/hook`)), {
        until: (m) => m.length > 0,
      });
      expect(mail[0]).toContain('Every delivery failed');
      expect(mail[0]).toContain('/settings/integrations');
      // Enabling it again starts with a clean slate.
      const on = await t.call('PATCH', `/api/webhooks/${hook.uuid}/`, {
        token: alice.token,
        json: { enabled: true },
      });
      expect(on.body).toMatchObject({ enabled: true, disabled_reason: null });
    } finally {
      t.app.webhooks.settings.disableAfterFailingMs = DEFAULT_DELIVERY_SETTINGS.disableAfterFailingMs;
      t.app.webhooks.clock = systemClock;
    }
  });

  it('e-mails nobody about a disabled webhook once its owner unsubscribed from those e-mails', async () => {
    const link = /^List-Unsubscribe: <(.+)>$/m.exec(disabledMails().at(-1)!)![1]!;
    const unsubscribed = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(await unsubscribed.json()).toEqual({ event: 'integration_failed', email: false });
    try {
      const r = await receiver();
      r.script.push({ status: 410 });
      await createHook(r);
      await emitWebhookEvent(t.app, alice.user.id, messageEvent(aliceApp));
      // The bell still tells; the e-mail is not even queued.
      const told = await waitFor(
        async () =>
          (
            (await t.call('GET', '/api/notifications/', { token: alice.token })).body
              .results as TNotification[]
          ).find((n) => n.event === 'integration_failed' && n.body.includes(`${r.url}/hook`)),
        { until: (n) => n !== undefined },
      );
      const [row] = await t.app.db.select().from(notifications).where(eq(notifications.uuid, told!.uuid));
      expect(row!.emailStatus).toBe('none');
      expect(disabledMails().filter((m) => m.includes(`${r.url}/hook`))).toEqual([]);
    } finally {
      await t.call('PUT', '/api/notification-profile/', { token: alice.token, json: ALICE_PROFILE });
    }
  });

  it('records attempts that finish out of order without moving the failing start or the last delivery back', async () => {
    const r = await receiver();
    const hook = await createHook(r);
    const [row] = await t.app.db.select().from(webhooks).where(eq(webhooks.uuid, hook.uuid));
    const id = row!.id;
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, second));
    const state = async () => {
      const [w] = await t.app.db.select().from(webhooks).where(eq(webhooks.id, id));
      return {
        failingSince: w!.failingSince?.getTime() ?? null,
        lastAt: w!.lastDeliveryAt?.getTime() ?? null,
        lastOk: w!.lastDeliveryOk,
        lastStatus: w!.lastStatusCode,
      };
    };
    // A failure at :01 starts the streak; a success at :03 ends it.
    await recordOutcome(t.app.db, id, at(1), false, 500);
    expect(await state()).toMatchObject({ failingSince: at(1).getTime(), lastOk: false });
    await recordOutcome(t.app.db, id, at(3), true, 200);
    expect(await state()).toEqual({
      failingSince: null,
      lastAt: at(3).getTime(),
      lastOk: true,
      lastStatus: 200,
    });
    // A failure that started at :02, before that success, finishes late: it changes nothing.
    expect(await recordOutcome(t.app.db, id, at(2), false, 502)).toEqual({ failingSince: null });
    expect(await state()).toEqual({
      failingSince: null,
      lastAt: at(3).getTime(),
      lastOk: true,
      lastStatus: 200,
    });

    // A failure at :10 starts a streak; a success at :05 finishing after it cannot end it, nor
    // can a failure at :04 finishing last move it back before that success.
    await recordOutcome(t.app.db, id, at(10), false, 500);
    await recordOutcome(t.app.db, id, at(5), true, 200);
    expect(await state()).toEqual({
      failingSince: at(10).getTime(),
      lastAt: at(10).getTime(),
      lastOk: false,
      lastStatus: 500,
    });
    expect(await recordOutcome(t.app.db, id, at(4), false, 503)).toEqual({ failingSince: at(10) });

    // A success at :20 ends it; the streak starts anew with the next failure.
    await recordOutcome(t.app.db, id, at(20), true, 204);
    expect(await state()).toMatchObject({ failingSince: null, lastOk: true, lastStatus: 204 });
    await recordOutcome(t.app.db, id, at(30), false, null);
    expect(await state()).toEqual({
      failingSince: at(30).getTime(),
      lastAt: at(30).getTime(),
      lastOk: false,
      lastStatus: null,
    });
  });

  it('signs with both secrets during a rotation, and with the new one alone after it', async () => {
    const r = await receiver();
    const hook = await createHook(r, { events: ['message.created'] });
    t.app.webhooks.settings.rotationWindowMs = 1500;
    try {
      const rotated = await t.call('POST', `/api/webhooks/${hook.uuid}/rotate-secret/`, {
        token: alice.token,
      });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(hook.secret);
      expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now());
      r.secrets.push(rotated.body.secret);
      const shown = await t.call('GET', `/api/webhooks/${hook.uuid}/`, { token: alice.token });
      expect(shown.body.previous_secret_expires_at).toBe(rotated.body.previous_secret_expires_at);

      await t.call('POST', `/api/webhooks/${hook.uuid}/test/`, { token: alice.token });
      const [during] = await r.waitFor(1);
      expect(during!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
      // A receiver with either secret verifies it.
      expect(during!.verifiedWith.sort()).toEqual([hook.secret, rotated.body.secret].sort());

      // Past the rotation window, on the webhooks' clock rather than by sleeping through it.
      t.app.webhooks.clock = () => new Date(Date.now() + 1600);
      await t.call('POST', `/api/webhooks/${hook.uuid}/test/`, { token: alice.token });
      const [, after] = await r.waitFor(2);
      expect(after!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
      expect(after!.verifiedWith).toEqual([rotated.body.secret]);
    } finally {
      t.app.webhooks.settings.rotationWindowMs = DEFAULT_DELIVERY_SETTINGS.rotationWindowMs;
      t.app.webhooks.clock = systemClock;
    }
  });

  it('re-queues a due delivery whose job was lost (the pg-boss job row deleted)', async () => {
    const r = await receiver();
    r.script.push({ status: 500 });
    Object.assign(t.app.webhooks.settings, { retryDelaysMs: [1000], sweepGraceMs: 0 });
    try {
      // An event no other webhook of the test wants, so the only job in play is this one's.
      const hook = await createHook(r, { events: ['knowledge.item.failed'] });
      await emitWebhookEvent(t.app, alice.user.id, itemFailedEvent(aliceApp));
      await r.waitFor(1);
      const [d] = await waitFor(() => deliveries(hook.uuid), { until: (l) => l[0]?.attempt_count === 1 });
      const [row] = await t.app.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.uuid, d!.uuid));
      // The retry's job, queued after the first attempt, is lost.
      const lost = await waitFor(
        async () =>
          (
            await t.database.query<{ id: string }>(
              `DELETE FROM pgboss.job WHERE name = $1 AND state = 'created' AND (data->>'deliveryId')::int = $2
               RETURNING id`,
              [DELIVERY_QUEUE, row!.id],
            )
          ).rows,
        { until: (rows) => rows.length > 0, timeoutMs: 900 },
      );
      expect(lost).toHaveLength(1);
      // The retry falls due (on the database's clock, which schedules it) with no job to send it.
      await waitFor(
        async () =>
          (
            await t.database.query<{ due: boolean }>(
              'SELECT next_attempt_at <= now() AS due FROM webhook_deliveries WHERE id = $1',
              [row!.id],
            )
          ).rows[0]?.due,
        { what: 'the retry to fall due', timeoutMs: 5000 },
      );
      expect(r.received).toHaveLength(1);
      // The sweep (every 30 s; called here at once) finds it due with no job and queues it again.
      expect(await sweepDeliveries(t.app)).toBe(1);
      await r.waitFor(2);
      expect(r.received[1]!.headers['webhook-id']).toBe(d!.message_id);
      expect(r.received[1]!.verifiedWith).toEqual([hook.secret]);
      const [done] = await waitFor(() => deliveries(hook.uuid), {
        until: (l) => l[0]?.status === 'succeeded',
      });
      expect(done!.attempt_count).toBe(2);
      expect(await sweepDeliveries(t.app)).toBe(0);
    } finally {
      t.app.webhooks.settings.sweepGraceMs = DEFAULT_DELIVERY_SETTINGS.sweepGraceMs;
    }
  });

  it('keeps the delivery row as the truth: a pending row the job never saw is still sent', async () => {
    const r = await receiver();
    const hook = await createHook(r);
    const [row] = await t.app.db.select().from(webhooks).where(eq(webhooks.uuid, hook.uuid));
    await t.app.db.insert(webhookDeliveries).values({
      webhookId: row!.id,
      eventType: 'webhook.ping',
      body: JSON.stringify({
        type: 'webhook.ping',
        timestamp: new Date().toISOString(),
        data: { webhook_uuid: hook.uuid, message: 'orphan' },
      }),
      nextAttemptAt: sql`now() - interval '1 minute'`,
    });
    expect(await sweepDeliveries(t.app)).toBe(1);
    const [got] = await r.waitFor(1);
    expect(got!.payload).toMatchObject({ data: { message: 'orphan' } });
  });
});
