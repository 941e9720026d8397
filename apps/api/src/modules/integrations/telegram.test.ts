import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith, conversationsOf } from '../../testing/chat-fixtures.ts';
import { type FakeTelegram, startFakeTelegram } from '../../testing/fake-telegram-server.ts';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { REPLY_QUEUE, type ReplyJob } from './reply-job.ts';
import { sendReply } from './send-reply.ts';
import { telegramApi, telegramModeFor } from './telegram-client.ts';
import { createTelegramPoller } from './telegram-poller.ts';
import { sendPartsOnce } from './telegram-send-once.ts';

const POLLED = '123456:AAFpolledpolledpolledpolled';
const PUSHED = '654321:AAFpushedpushedpushedpushed';
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.',
};

let t: TestApp;
let tg: FakeTelegram;
let owner: { token: string };
let appA: { uuid: string };
let localUrl: string;

const create = (botToken: string, token = owner.token) =>
  t.call('POST', '/api/integrations/', {
    token,
    json: { kind: 'telegram', application_uuid: appA.uuid, bot_token: botToken },
  });

beforeAll(async () => {
  tg = await startFakeTelegram();
  tg.addBot(POLLED, 'polled_bot');
  tg.addBot(PUSHED, 'pushed_bot');
  t = await startTestApp(
    { telegramApiUrl: tg.url },
    { integrations: { poller: { timeoutSeconds: 1, scanIntervalMs: 200, leaseSeconds: 30 } } },
  );
  localUrl = t.config.publicUrl;
  owner = await t.signUp();
  appA = await applicationWith(t, owner.token, [WARRANTY]);
});
afterAll(async () => {
  await t?.close();
  await tg?.close();
});

describe('Telegram mode', () => {
  it('pushes only to a public https PUBLIC_URL', () => {
    expect(telegramModeFor('https://cairn.example.com').mode).toBe('webhook');
    for (const url of [
      'http://cairn.example.com',
      'https://localhost:3000',
      'https://127.0.0.1',
      'https://192.168.1.4',
      'https://cairn',
    ])
      expect(telegramModeFor(url).mode).toBe('polling');
    expect(telegramModeFor('http://localhost:3000').reason).toContain('not https');
  });
});

describe('Telegram with long polling (PUBLIC_URL is local)', () => {
  let uuid: string;

  it('checks the token with getMe and says why it polls', async () => {
    const bad = await create('999:AAFnobodynobodynobodynobody');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.bot_token).toHaveLength(1);
    expect((await create('not-a-token')).status).toBe(400);

    const res = await create(POLLED);
    expect(res.status).toBe(201);
    uuid = res.body.uuid;
    expect(res.body).toMatchObject({
      kind: 'telegram',
      mode: 'polling',
      bot_name: '@polled_bot',
      status: 'connected',
    });
    expect(res.body.mode_reason).toContain('long polling');
    expect(JSON.stringify(res.body)).not.toContain(POLLED);
    expect(tg.calls.some((c) => c.token === POLLED && c.method === 'deleteWebhook')).toBe(true);
  });

  it('greets /start and answers a question with its sources, in a telegram chatroom', async () => {
    const since = tg.calls.length;
    tg.sendText(POLLED, 4242, '/start');
    const greeting = await tg.waitFor('sendMessage', since);
    expect(greeting.params).toMatchObject({ chat_id: 4242 });
    expect(String(greeting.params.text)).toMatch(/^Hi! I am Support\./);

    const next = tg.calls.length;
    tg.sendText(POLLED, 4242, 'How long is the warranty of the X200?');
    const answer = await tg.waitFor('sendMessage', next);
    expect(answer.token).toBe(POLLED);
    expect(String(answer.params.text)).toContain('three-year warranty');
    expect(String(answer.params.text)).toContain('Sources:\n[1] X200 manual');
    expect(answer.params.reply_parameters).toMatchObject({ message_id: expect.any(Number) });

    const rooms = await conversationsOf(t, appA.uuid);
    const room = rooms.find((r: { source: string }) => r.source === 'telegram');
    expect(room).toBeDefined();
    const shown = (await t.call('GET', `/api/integrations/${uuid}/`, { token: owner.token })).body;
    expect(shown.last_event_at).not.toBeNull();
    const { rows } = await t.database.query<{ poll_offset: string }>(
      'SELECT poll_offset FROM integrations WHERE uuid = $1',
      [uuid],
    );
    expect(Number(rows[0]!.poll_offset)).toBe(502);
  });

  it("says the owner's words, with no sources, to a question the knowledge does not cover", async () => {
    const ownerWords = 'Please ask our front desk about that.';
    const patch = (message: string) =>
      t.call('PATCH', `/api/applications/${appA.uuid}/`, {
        token: owner.token,
        json: { no_answer_message: message },
      });
    expect((await patch(ownerWords)).status).toBe(200);
    try {
      const since = tg.calls.length;
      tg.sendText(POLLED, 4244, 'Which telescope should an astronomer buy?');
      const reply = await tg.waitFor('sendMessage', since);
      expect(reply.params).toMatchObject({ chat_id: 4244, text: ownerWords });
    } finally {
      await patch('');
    }
  });
});

describe('a Telegram reply run again (decision 073)', () => {
  const sentSince = (since: number) =>
    tg.calls.slice(since).filter((c) => c.method === 'sendMessage' && c.token === POLLED);
  const integrationId = async () =>
    (
      await t.database.query<{ id: number }>(
        "SELECT id FROM integrations WHERE kind = 'telegram' AND bot_name = '@polled_bot'",
      )
    ).rows[0]!.id;

  it('sends nothing again when run after Telegram took its parts', async () => {
    const { rows } = await t.database.query<{ data: ReplyJob }>(
      "SELECT data FROM pgboss.job WHERE name = $1 AND state = 'completed' AND data->>'threadKey' = '4242'",
      [REPLY_QUEUE],
    );
    // The greeting and the answer of the chat above, each run again as after a crash.
    expect(rows.map((r) => r.data.type).sort()).toEqual(['greeting', 'question']);
    const since = tg.calls.length;
    for (const { data } of rows) await sendReply(t.app, data, true);
    expect(sentSince(since)).toEqual([]);
  });

  it('sends only the parts not yet taken when a long reply was cut short', async () => {
    const id = await integrationId();
    const api = await telegramApi(t.config, POLLED);
    const reply = { uuid: randomUUID(), rerun: false };
    const parts = ['part one', 'part two', 'part three'];
    const since = tg.calls.length;
    // The process dies after Telegram took two parts.
    await expect(
      sendPartsOnce(t.app, id, reply, parts, async (text, index) => {
        if (index === 2) throw new Error('killed');
        await api.sendMessage(4250, text);
      }),
    ).rejects.toThrow('killed');
    await sendPartsOnce(t.app, id, { ...reply, rerun: true }, parts, (text) => api.sendMessage(4250, text));
    expect(sentSince(since).map((c) => c.params.text)).toEqual(parts);
    // Another reply's parts are its own.
    const other = tg.calls.length;
    await sendPartsOnce(t.app, id, { uuid: randomUUID(), rerun: true }, ['other'], (text) =>
      api.sendMessage(4250, text),
    );
    expect(sentSince(other).map((c) => c.params.text)).toEqual(['other']);
  });
});

describe('one poller per bot', () => {
  const leaseOf = async () =>
    (
      await t.database.query<{ poller_lease: string | null }>(
        `SELECT poller_lease FROM integrations WHERE kind = 'telegram' AND mode = 'polling'`,
      )
    ).rows[0]!.poller_lease;

  it('leaves a bot another poller holds alone, and takes over one whose lease ran out', async () => {
    const held = await leaseOf();
    expect(held).toMatch(/^[0-9a-f-]{36}$/);
    // A second process's poller: the live lease keeps it out, and closing it releases nothing of ours.
    const other = createTelegramPoller(t.app, { timeoutSeconds: 1, scanIntervalMs: 100, leaseSeconds: 30 });
    other.start();
    await new Promise((r) => setTimeout(r, 400));
    expect(await leaseOf()).toBe(held);
    await other.close();
    expect(await leaseOf()).toBe(held);

    // A process that died holding the bot: once its lease is past, this process polls it again.
    // The dead lease as written: this process's poller may take the bot back before a second read.
    const { rows } = await t.database.query<{ poller_lease: string }>(
      `UPDATE integrations SET poller_lease = gen_random_uuid(), poller_lease_until = now() - interval '1 second'
        WHERE kind = 'telegram' AND mode = 'polling' RETURNING poller_lease`,
    );
    const dead = rows[0]!.poller_lease;
    for (let i = 0; i < 100 && (await leaseOf()) !== held; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await leaseOf()).toBe(held);
    expect(dead).not.toBe(held);
    const since = tg.calls.length;
    tg.sendText(POLLED, 4243, 'What does the warranty cover?');
    expect(String((await tg.waitFor('sendMessage', since)).params.text)).toContain('parts and labour');
  });
});

describe('Telegram with a webhook (PUBLIC_URL is public https)', () => {
  let uuid: string;
  let secret: string;
  let updatesUrl: string;

  it('takes the webhook back when the integration cannot be stored', async () => {
    t.config.publicUrl = 'https://cairn.example.com';
    // A constraint no new row meets: the insert fails after Telegram accepted the webhook.
    await t.database.query('ALTER TABLE integrations ADD CONSTRAINT refuse_all CHECK (false) NOT VALID');
    try {
      const since = tg.calls.length;
      expect((await create(PUSHED)).status).toBe(500);
      const methods = tg.calls
        .slice(since)
        .filter((c) => c.token === PUSHED)
        .map((c) => c.method);
      expect(methods.slice(-2)).toEqual(['setWebhook', 'deleteWebhook']);
    } finally {
      await t.database.query('ALTER TABLE integrations DROP CONSTRAINT refuse_all');
      t.config.publicUrl = localUrl;
    }
  });

  it('registers the webhook with a secret token', async () => {
    t.config.publicUrl = 'https://cairn.example.com';
    try {
      const since = tg.calls.length;
      const res = await create(PUSHED);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ mode: 'webhook', bot_name: '@pushed_bot' });
      uuid = res.body.uuid;
      const set = tg.calls.slice(since).find((c) => c.method === 'setWebhook')!;
      updatesUrl = `https://cairn.example.com/api/integrations/telegram/${uuid}/updates/`;
      expect(set.params.url).toBe(updatesUrl);
      secret = String(set.params.secret_token);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
      expect(JSON.stringify(res.body)).not.toContain(secret);
    } finally {
      t.config.publicUrl = localUrl;
    }
  });

  const push = (update: unknown, headers: Record<string, string>) =>
    t.call('POST', `/api/integrations/telegram/${uuid}/updates/`, { json: update, headers });

  it('refuses updates without the right secret token', async () => {
    const since = tg.calls.length;
    const update = tg.textUpdate(PUSHED, 77, 'How long is the warranty?');
    expect(await push(update, {})).toMatchObject({
      status: 401,
      body: { detail: 'The secret token is missing or wrong.', code: 'unauthorized' },
    });
    expect((await push(update, { 'x-telegram-bot-api-secret-token': `${secret}x` })).status).toBe(401);
    expect((await push(update, { 'x-telegram-bot-api-secret-token': '' })).status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(tg.calls.slice(since).filter((c) => c.method === 'sendMessage')).toHaveLength(0);
  });

  it('answers an update with the right secret, once even when Telegram sends it again', async () => {
    const since = tg.calls.length;
    const update = tg.textUpdate(PUSHED, 77, 'How long is the warranty of the X200?');
    const headers = { 'x-telegram-bot-api-secret-token': secret };
    expect(await push(update, headers)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await push(update, headers)).status).toBe(200);
    const answer = await tg.waitFor('sendMessage', since);
    expect(answer.params.chat_id).toBe(77);
    expect(String(answer.params.text)).toContain('[1] X200 manual');
    await new Promise((r) => setTimeout(r, 300));
    expect(tg.calls.slice(since).filter((c) => c.method === 'sendMessage')).toHaveLength(1);
    expect((await push({ update_id: 'x' }, headers)).status).toBe(400);
  });

  it('answers two messages of a new chat arriving together in one chatroom', async () => {
    const since = tg.calls.length;
    const headers = { 'x-telegram-bot-api-secret-token': secret };
    const questions = ['Is the X200 covered for three years?', 'Must I register my X200?'];
    const pushed = await Promise.all(questions.map((q) => push(tg.textUpdate(PUSHED, 78, q), headers)));
    expect(pushed.map((r) => r.status)).toEqual([200, 200]);
    const first = await tg.waitFor('sendMessage', since);
    await tg.waitFor('sendMessage', tg.calls.indexOf(first) + 1);

    // Either message may have created it; the other's chatroom, had it made one, would be named by it.
    const rooms = await t.database.query<{ id: number }>(
      `SELECT id FROM chatrooms WHERE source = 'telegram' AND name = ANY($1)`,
      [questions],
    );
    expect(rooms.rows).toHaveLength(1);
    const asked = await t.database.query<{ message: string }>(
      `SELECT message FROM messages WHERE chatroom_id = $1 AND metadata->>'source' = 'telegram'`,
      [rooms.rows[0]!.id],
    );
    expect(asked.rows.map((r) => r.message).sort()).toEqual([...questions].sort());
  });

  it('removes the webhook when deleted; the URL then answers 404', async () => {
    const since = tg.calls.length;
    expect((await t.call('DELETE', `/api/integrations/${uuid}/`, { token: owner.token })).status).toBe(204);
    expect(tg.calls.slice(since).some((c) => c.method === 'deleteWebhook' && c.token === PUSHED)).toBe(true);
    const update = tg.textUpdate(PUSHED, 77, 'Hello?');
    expect((await push(update, { 'x-telegram-bot-api-secret-token': secret })).status).toBe(404);
  });

  it('removes the webhook when its application is deleted', async () => {
    t.config.publicUrl = 'https://cairn.example.com';
    try {
      const other = await applicationWith(t, owner.token, [WARRANTY]);
      const res = await t.call('POST', '/api/integrations/', {
        token: owner.token,
        json: { kind: 'telegram', application_uuid: other.uuid, bot_token: PUSHED },
      });
      expect(res.body).toMatchObject({ mode: 'webhook' });
      const since = tg.calls.length;
      expect(
        (await t.call('DELETE', `/api/applications/${other.uuid}/`, { token: owner.token })).status,
      ).toBe(204);
      await productEventsSettled(t.app);
      expect(tg.calls.slice(since).some((c) => c.method === 'deleteWebhook' && c.token === PUSHED)).toBe(
        true,
      );
    } finally {
      t.config.publicUrl = localUrl;
    }
  });
});
