import type { TNotification, TNotificationProfile } from '@cairn/contracts/notifications';
import { DEFAULT_NOTIFICATION_PROFILE } from '@cairn/contracts/notifications';
import type { TWidgetBoot } from '@cairn/contracts/widget';
import { notifications } from '@cairn/db/schema';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { readableMail } from '../../testing/mail.ts';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { type Receiver, startReceiver } from '../../testing/webhook-receiver.ts';
import {
  deliverNotificationEmail,
  EMAIL_QUEUE,
  EMAIL_RETRY_DELAYS_MS,
  type EmailJob,
  runEmailJob,
  runEmailJobs,
} from './deliver-email.ts';

/**
 * Notifications through the real API: the profile, events recorded where they happen (bell and
 * socket), the delayed e-mail with its skip-if-seen and quiet-hours rules under a test clock, and
 * one-click unsubscribe.
 */

const SHOP = 'https://shop.example.com';

const unsubscribeLink = (raw: string) => /^List-Unsubscribe: <(.+)>$/m.exec(readableMail(raw))?.[1];
const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour.',
};

let t: TestApp;
let alice: { token: string; user: { id: number; email: string } };
let bob: { token: string; user: { id: number; email: string } };
let appUuid: string;
let receiver: Receiver;
/** Alice's `notification` socket events. */
const live: TNotification[] = [];
let socket: WebSocket;

const profileOf = async (token: string) =>
  (await t.call('GET', '/api/notification-profile/', { token })).body as TNotificationProfile;
const putProfile = (token: string, json: unknown) =>
  t.call('PUT', '/api/notification-profile/', { token, json });
const bell = async (token = alice.token) =>
  (await t.call('GET', '/api/notifications/', { token })).body as {
    unread_count: number;
    results: TNotification[];
  };

/** Waits for Alice's notification of `event` that matches, in the bell and on the socket. */
async function notified(event: string, match: (n: TNotification) => boolean = () => true) {
  let found: TNotification | undefined;
  await waitFor(
    async () => {
      found = (await bell()).results.find((n) => n.event === event && match(n));
      return found !== undefined;
    },
    { timeoutMs: 15_000 },
  );
  await waitFor(() => live.some((n) => n.uuid === found!.uuid));
  return found!;
}

async function visitorSession() {
  const page = await fetch(`${t.url}/embed/v1/${appUuid}?origin=${encodeURIComponent(SHOP)}`);
  const boot = /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(
    await page.text(),
  )?.[1];
  const token = (JSON.parse(boot!) as TWidgetBoot).token;
  return (method: string, p: string, json?: unknown) =>
    t.call(method, `/api/widget/v1${p}`, {
      ...(json !== undefined && { json }),
      headers: { authorization: `Bearer ${token}` },
    });
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
  appUuid = (await applicationWith(t, alice.token, [WARRANTY])).uuid;
  const widget = await t.call('PATCH', `/api/applications/${appUuid}/widget/`, {
    token: alice.token,
    json: { enabled: true, allowed_origins: [SHOP], takeover: { enabled: true, email_owner: true } },
  });
  expect(widget.status).toBe(200);
  receiver = await startReceiver();
  socket = new WebSocket(`${t.url.replace('http', 'ws')}/api/ws`, {
    headers: { authorization: `Token ${alice.token}` },
  });
  socket.on('message', (raw) => {
    const parsed = JSON.parse(raw.toString()) as { event: string; data: TNotification };
    if (parsed.event === 'notification') live.push(parsed.data);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
}, 60_000);
afterAll(async () => {
  socket?.close();
  await receiver?.close();
  await t?.close();
});

describe('notification profile', () => {
  it('starts with the defaults: handoffs and failures by e-mail, what people did in the app, uncovered questions in the inbox only', async () => {
    expect(await profileOf(alice.token)).toEqual(DEFAULT_NOTIFICATION_PROFILE);
    expect(DEFAULT_NOTIFICATION_PROFILE.events.handoff_requested).toEqual(['email', 'in_app']);
    expect(DEFAULT_NOTIFICATION_PROFILE.events.integration_failed).toEqual(['email', 'in_app']);
    expect(DEFAULT_NOTIFICATION_PROFILE.events.conversation_started).toEqual(['in_app']);
    expect(DEFAULT_NOTIFICATION_PROFILE.events.unanswered_question).toEqual([]);
    expect((await t.call('GET', '/api/notification-profile/')).status).toBe(401);
  });

  it('saves a profile for its owner only; in-app is a channel like the others', async () => {
    const profile = {
      ...DEFAULT_NOTIFICATION_PROFILE,
      events: {
        ...DEFAULT_NOTIFICATION_PROFILE.events,
        conversation_started: ['email', 'email'],
        handoff_requested: [],
      },
      email_delay_minutes: 0,
      quiet_hours: { start: '22:00', end: '07:00', time_zone: 'Europe/Paris' },
      digest: 'daily',
      digest_hour: 8,
    };
    const res = await putProfile(bob.token, profile);
    expect(res.status).toBe(200);
    expect(res.body.events.conversation_started).toEqual(['email']);
    expect(res.body.events.handoff_requested).toEqual([]);
    expect(res.body.quiet_hours).toEqual({
      start: '22:00',
      end: '07:00',
      time_zone: 'Europe/Paris',
      urgent_handoff: false,
    });
    expect(await profileOf(bob.token)).toEqual(res.body);
    expect(await profileOf(alice.token)).toEqual(DEFAULT_NOTIFICATION_PROFILE);
  });

  it.each([
    [
      'an unknown time zone',
      { quiet_hours: { start: '22:00', end: '07:00', time_zone: 'Mars/Olympus' } },
      'quiet_hours.time_zone',
    ],
    [
      'a time past 23:59',
      { quiet_hours: { start: '24:00', end: '07:00', time_zone: 'UTC' } },
      'quiet_hours.start',
    ],
    [
      'a time without minutes',
      { quiet_hours: { start: '22:00', end: '7', time_zone: 'UTC' } },
      'quiet_hours.end',
    ],
    ['a negative delay', { email_delay_minutes: -1 }, 'email_delay_minutes'],
    ['an hour of 24', { digest_hour: 24 }, 'digest_hour'],
    [
      'an unknown channel',
      { events: { ...DEFAULT_NOTIFICATION_PROFILE.events, handoff_requested: ['fax'] } },
      'events.handoff_requested.0',
    ],
  ])('refuses %s with a 400 naming the field', async (_label, change, field) => {
    const res = await putProfile(alice.token, { ...DEFAULT_NOTIFICATION_PROFILE, ...change });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(await profileOf(alice.token)).toEqual(DEFAULT_NOTIFICATION_PROFILE);
  });
});

describe('events reach the bell and the socket', () => {
  it('a widget conversation: started, thumbs down, handoff, visitor reply (not the uncovered question, by default)', async () => {
    const visitor = await visitorSession();
    const sent = await visitor('POST', '/messages/', {
      conversation_uuid: null,
      message: 'Do you sell replacement bicycle saddles in Mongolia?',
    });
    expect(sent.status).toBe(201);
    const room = sent.body.conversation.uuid as string;
    const inRoom = (n: TNotification) => n.chatroom_uuid === room;

    const started = await notified('conversation_started', inRoom);
    expect(started).toMatchObject({
      title: expect.stringMatching(/^New Widget conversation in /),
      application_uuid: appUuid,
      link: `/applications/${appUuid}/messages/${room}`,
      read: false,
    });
    expect(
      (await visitor('POST', `/messages/${sent.body.answer.uuid}/feedback/`, { feedback: 'down' })).status,
    ).toBe(200);
    await notified('negative_feedback', inRoom);
    expect((await visitor('POST', `/conversations/${room}/handoff/`)).status).toBe(200);
    await notified('handoff_requested', inRoom);
    const again = await visitor('POST', '/messages/', {
      conversation_uuid: room,
      message: 'Hello? Anyone there?',
    });
    expect(again.status).toBe(201);
    const replied = await notified('visitor_replied', inRoom);
    expect(replied.body).toBe('Hello? Anyone there?');
    // The question the knowledge did not cover is in the inbox; the default profile tells it nowhere.
    const { rows } = await t.database.query(
      `SELECT n.id FROM notifications n JOIN chatrooms c ON c.id = n.chatroom_id
        WHERE c.uuid = $1 AND n.event = 'unanswered_question'`,
      [room],
    );
    expect(rows).toEqual([]);
    // Bob hears nothing of Alice's application.
    expect((await bell(bob.token)).results).toEqual([]);
  });

  it('an owner chat in the app notifies nothing', async () => {
    const before = (await bell()).results.length;
    const sent = await t.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
      token: alice.token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'Anything about saddles?',
        sender_identifier: `reg_${alice.user.id}`,
      },
    });
    expect(sent.status).toBe(201);
    await waitFor(async () => {
      const messages = await t.call(
        'GET',
        `/api/applications/${appUuid}/chatrooms/${sent.body.chatroom.uuid}/messages/`,
        {
          token: alice.token,
        },
      );
      return messages.body.messages.at(-1).status === 'complete';
    });
    await new Promise((r) => setTimeout(r, 200));
    expect((await bell()).results.length).toBe(before);
  });

  it('a knowledge item that fails: knowledge_failed, linking to the knowledge base', async () => {
    const form = new FormData();
    form.append('items[0].type', 'url');
    form.append('items[0].value', 'http://127.0.0.1:1/closed');
    const res = await t.call('POST', `/api/applications/${appUuid}/knowledge/`, { token: alice.token, form });
    expect(res.status).toBe(201);
    const failed = await notified('knowledge_failed');
    expect(failed).toMatchObject({
      link: `/applications/${appUuid}/knowledge-base`,
      application_uuid: appUuid,
    });
    expect(failed.body).toMatch(/^Unreachable/);
  });

  it('a webhook Cairn disables: integration_failed, linking to the integrations', async () => {
    receiver.script.push({ status: 410 });
    const hook = await t.call('POST', '/api/webhooks/', {
      token: alice.token,
      json: { url: `${receiver.url}/hook`, events: ['conversation.created'] },
    });
    expect(hook.status).toBe(201);
    expect(
      (await t.call('POST', `/api/webhooks/${hook.body.uuid}/test/`, { token: alice.token })).status,
    ).toBe(202);
    const failed = await notified('integration_failed');
    expect(failed).toMatchObject({ title: 'A webhook was disabled', link: '/settings/integrations' });
    expect(failed.body).toContain(`Cairn stopped sending events to ${receiver.url}/hook.`);
    // Its e-mail is the profile's, like any notification's: after the delay, with one-click unsubscribe.
    const [row] = await t.app.db.select().from(notifications).where(eq(notifications.uuid, failed.uuid));
    expect(row!.emailStatus).toBe('pending');
    t.app.notifications.clock = () => row!.emailDueAt!;
    try {
      expect(await deliverNotificationEmail(t.app, row!.id)).toBe('sent');
    } finally {
      t.app.notifications.clock = () => new Date();
    }
    const mail = t
      .outbox()
      .filter((m) => m.to === alice.user.email)
      .at(-1)!;
    expect(mail.subject).toBe('A webhook was disabled');
    expect(readableMail(mail.raw)).toContain('410 Gone');
    expect(readableMail(mail.raw)).toContain(`${t.url}/settings/integrations`);
    expect(unsubscribeLink(mail.raw)).toMatch(/\/api\/notifications\/unsubscribe\/\?token=cnu1\./);
  });

  it('marks read by uuid (own only) and all at once', async () => {
    const { results, unread_count } = await bell();
    expect(unread_count).toBe(results.length);
    const first = results[0]!.uuid;
    // Bob cannot mark Alice's.
    expect(
      (await t.call('POST', '/api/notifications/read/', { token: bob.token, json: { uuids: [first] } }))
        .status,
    ).toBe(200);
    expect((await bell()).unread_count).toBe(unread_count);
    const one = await t.call('POST', '/api/notifications/read/', {
      token: alice.token,
      json: { uuids: [first] },
    });
    expect(one.body).toEqual({ unread_count: unread_count - 1 });
    expect((await bell()).results[0]!.read).toBe(true);
    expect((await t.call('POST', '/api/notifications/read/', { token: alice.token, json: {} })).status).toBe(
      400,
    );
    const all = await t.call('POST', '/api/notifications/read/', { token: alice.token, json: { all: true } });
    expect(all.body).toEqual({ unread_count: 0 });
  });
});

describe('quiet by default', () => {
  /** The latest stored notification of an event, whether the bell lists it or not. */
  const latestOf = async (event: string) =>
    (
      await t.app.db
        .select()
        .from(notifications)
        .where(eq(notifications.event, event))
        .orderBy(desc(notifications.id))
        .limit(1)
    )[0];
  const rowsOf = async (room: string) =>
    (
      await t.database.query<{ event: string }>(
        `SELECT n.event FROM notifications n JOIN chatrooms c ON c.id = n.chatroom_id WHERE c.uuid = $1`,
        [room],
      )
    ).rows;

  it('a new API conversation notifies nobody, even with conversation_started in the app', async () => {
    const key = (
      await t.call('POST', `/api/applications/${appUuid}/api-keys/`, {
        token: alice.token,
        json: { name: 'K' },
      })
    ).body.key;
    const ask = async (input: string) => {
      const res = await t.call('POST', '/api/v1/responses', {
        headers: { authorization: `Bearer ${key}` },
        json: { model: appUuid, input },
      });
      expect(res.status).toBe(200);
      await productEventsSettled(t.app);
      return res.body.conversation_id as string;
    };
    const before = await bell();
    const liveBefore = live.length;
    // Covered and uncovered: neither a start nor an uncovered question is told by default.
    const rooms = [await ask('How long is the X200 warranty?'), await ask('Do you ship to the Moon?')];
    const everything = Object.fromEntries(
      Object.keys(DEFAULT_NOTIFICATION_PROFILE.events).map((event) => [event, ['in_app']]),
    );
    expect(
      (await putProfile(alice.token, { ...DEFAULT_NOTIFICATION_PROFILE, events: everything })).status,
    ).toBe(200);
    rooms.push(await ask('Is the warranty three years?'));
    // A visitor's conversation started after them is told: the API ones were recorded before it if at all.
    const visitor = await visitorSession();
    const sent = await visitor('POST', '/messages/', { conversation_uuid: null, message: 'Warranty?' });
    await notified('conversation_started', (n) => n.chatroom_uuid === sent.body.conversation.uuid);
    for (const room of rooms.slice(0, 2)) expect(await rowsOf(room)).toEqual([]);
    // Asked for, the uncovered question is told; the start of the API conversation still is not.
    expect((await rowsOf(rooms[2]!)).map((r) => r.event)).not.toContain('conversation_started');
    const after = await bell();
    expect(
      after.results.filter((n) => rooms.includes(n.chatroom_uuid ?? '')).map((n) => n.event),
    ).not.toContain('conversation_started');
    expect(after.unread_count).toBeGreaterThan(before.unread_count);
    expect(
      live
        .slice(liveBefore)
        .filter((n) => rooms.includes(n.chatroom_uuid ?? '') && n.event === 'conversation_started'),
    ).toEqual([]);
    await putProfile(alice.token, DEFAULT_NOTIFICATION_PROFILE);
  });

  it('an event told nowhere is still kept for the digest, read and out of the bell', async () => {
    expect((await putProfile(alice.token, { ...DEFAULT_NOTIFICATION_PROFILE, digest: 'daily' })).status).toBe(
      200,
    );
    const visitor = await visitorSession();
    const sent = await visitor('POST', '/messages/', {
      conversation_uuid: null,
      message: 'Do you repair submarines on Sundays?',
    });
    const room = sent.body.conversation.uuid as string;
    await waitFor(async () => (await rowsOf(room)).some((r) => r.event === 'unanswered_question'), {
      timeoutMs: 15_000,
    });
    const row = await latestOf('unanswered_question');
    expect(row).toMatchObject({ emailStatus: 'none', readAt: expect.any(Date) });
    expect((await bell()).results.filter((n) => n.event === 'unanswered_question')).toEqual([]);
    await putProfile(alice.token, DEFAULT_NOTIFICATION_PROFILE);
  });

  it('in-app off: no bell entry nor socket event, but the e-mail is still sent', async () => {
    t.app.notifications.clock = () => new Date();
    const profile = {
      ...DEFAULT_NOTIFICATION_PROFILE,
      email_delay_minutes: 0,
      events: {
        ...DEFAULT_NOTIFICATION_PROFILE.events,
        handoff_requested: ['email'],
        conversation_started: [],
      },
    };
    expect((await putProfile(alice.token, profile)).status).toBe(200);
    const before = await bell();
    const liveBefore = live.length;
    const visitor = await visitorSession();
    const sent = await visitor('POST', '/messages/', { conversation_uuid: null, message: 'Warranty?' });
    const room = sent.body.conversation.uuid as string;
    expect((await visitor('POST', `/conversations/${room}/handoff/`)).status).toBe(200);
    // E-mailed: the mail about this conversation, the one its row was claimed and sent for.
    await waitFor(
      () => t.outbox().some((m) => m.to === alice.user.email && readableMail(m.raw).includes(room)),
      {
        timeoutMs: 15_000,
      },
    );
    await waitFor(async () => (await latestOf('handoff_requested'))?.emailStatus === 'sent');
    // The row the e-mail was sent from exists, read, and the bell does not list it.
    const row = await latestOf('handoff_requested');
    expect(row).toMatchObject({ emailStatus: 'sent', readAt: expect.any(Date) });
    expect(await rowsOf(room)).toEqual([{ event: 'handoff_requested' }]);
    const after = await bell();
    expect(after.results.map((n) => n.chatroom_uuid)).not.toContain(room);
    expect(after.unread_count).toBe(before.unread_count);
    expect(live.slice(liveBefore).map((n) => n.chatroom_uuid)).not.toContain(room);
    // In the app again: the bell lists the event's entries, this one read.
    await putProfile(alice.token, DEFAULT_NOTIFICATION_PROFILE);
    const shown = (await bell()).results.find((n) => n.chatroom_uuid === room);
    expect(shown).toMatchObject({ event: 'handoff_requested', read: true });
  });
});

describe('e-mail', () => {
  const at = (iso: string) => () => new Date(iso);
  /** A handoff notification of Alice's, recorded at the clock's time, with its e-mail pending. */
  async function handoffAt(iso: string) {
    t.app.notifications.clock = at(iso);
    const visitor = await visitorSession();
    const sent = await visitor('POST', '/messages/', { conversation_uuid: null, message: 'Warranty?' });
    const room = sent.body.conversation.uuid as string;
    expect((await visitor('POST', `/conversations/${room}/handoff/`)).status).toBe(200);
    const n = await notified('handoff_requested', (x) => x.chatroom_uuid === room);
    await productEventsSettled(t.app);
    const [row] = await t.app.db.select().from(notifications).where(eq(notifications.uuid, n.uuid));
    return { room, id: row!.id, row: row! };
  }
  const mailsTo = () => t.outbox().filter((m) => m.to === alice.user.email);

  // These call the delivery themselves at chosen clock times. A handoff's e-mail is due at once, so
  // the e-mail worker would take its job at the same moment and race them: it is off meanwhile.
  describe('delivered by the test itself', () => {
    beforeAll(async () => {
      await t.app.jobs.boss.offWork(EMAIL_QUEUE);
    });
    afterAll(async () => {
      await t.app.jobs.define<EmailJob>(EMAIL_QUEUE, {
        work: { batchSize: 5, handle: (jobs) => runEmailJobs(t.app, jobs) },
      });
    });

    it('waits the delay, then sends with text, HTML and one-click unsubscribe headers', async () => {
      await putProfile(alice.token, {
        ...DEFAULT_NOTIFICATION_PROFILE,
        events: { ...DEFAULT_NOTIFICATION_PROFILE.events, conversation_started: ['email', 'in_app'] },
      });
      t.app.notifications.clock = at('2026-03-10T10:00:00Z');
      const visitor = await visitorSession();
      const sent = await visitor('POST', '/messages/', { conversation_uuid: null, message: 'Warranty?' });
      const room = sent.body.conversation.uuid as string;
      const n = await notified('conversation_started', (x) => x.chatroom_uuid === room);
      const [row] = await t.app.db.select().from(notifications).where(eq(notifications.uuid, n.uuid));
      const id = row!.id;
      expect(row!.emailStatus).toBe('pending');
      expect(row!.emailDueAt!.toISOString()).toBe('2026-03-10T10:03:00.000Z');
      const before = mailsTo().length;
      t.app.notifications.clock = at('2026-03-10T10:02:59Z');
      expect(await deliverNotificationEmail(t.app, id)).toBe('waiting');
      expect(mailsTo()).toHaveLength(before);
      t.app.notifications.clock = at('2026-03-10T10:03:00Z');
      expect(await deliverNotificationEmail(t.app, id)).toBe('sent');
      // A second run of the job sends nothing more.
      expect(await deliverNotificationEmail(t.app, id)).toBe('gone');
      const mail = mailsTo().at(-1)!;
      expect(mailsTo()).toHaveLength(before + 1);
      expect(mail.subject).toMatch(/^New Widget conversation/);
      expect(mail.raw).toMatch(/Content-Type: text\/html/);
      expect(readableMail(mail.raw)).toContain(`${t.url}/applications/${appUuid}/messages/${room}`);
      const unsubscribe = unsubscribeLink(mail.raw);
      expect(unsubscribe).toMatch(new RegExp(`^${t.url}/api/notifications/unsubscribe/\\?token=cnu1\\.`));
      expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      await putProfile(alice.token, DEFAULT_NOTIFICATION_PROFILE);
    });

    it('a handoff is e-mailed at once, with the time left to reply as of sending', async () => {
      const { id, row } = await handoffAt('2026-03-10T10:30:00Z');
      expect(row.emailDueAt!.toISOString()).toBe('2026-03-10T10:30:00.000Z');
      // The widget's default wait is 5 minutes from the request.
      expect(row.replyBy!.getTime() - row.createdAt.getTime()).toBeGreaterThan(4 * 60_000);
      t.app.notifications.clock = () => new Date(row.replyBy!.getTime() - 2 * 60_000);
      expect(await deliverNotificationEmail(t.app, id)).toBe('sent');
      const text = readableMail(mailsTo().at(-1)!.raw);
      expect(text).toContain('“Warranty?”');
      expect(text).toContain('Reply within 2 minutes');
      expect(text).not.toContain('?.');
    });

    it('is skipped when the owner opened the conversation before it was due', async () => {
      const { id, room } = await handoffAt('2026-03-10T11:00:00Z');
      t.app.notifications.clock = at('2026-03-10T11:01:00Z');
      const opened = await t.call('GET', `/api/applications/${appUuid}/chatrooms/${room}/messages/`, {
        token: alice.token,
      });
      expect(opened.status).toBe(200);
      const before = mailsTo().length;
      t.app.notifications.clock = at('2026-03-10T11:03:00Z');
      expect(await deliverNotificationEmail(t.app, id)).toBe('skipped');
      expect(mailsTo()).toHaveLength(before);
    });

    it('is held through quiet hours across midnight in the owner’s time zone, unless an urgent handoff', async () => {
      const quiet = { start: '22:00', end: '07:00', time_zone: 'America/New_York' };
      expect(
        (await putProfile(alice.token, { ...DEFAULT_NOTIFICATION_PROFILE, quiet_hours: quiet })).status,
      ).toBe(200);
      // 23:30 in New York (EST, UTC−5) is 04:30 UTC the next day.
      const { id } = await handoffAt('2026-01-15T04:30:00Z');
      t.app.notifications.clock = at('2026-01-15T04:33:00Z');
      const before = mailsTo().length;
      expect(await deliverNotificationEmail(t.app, id)).toBe('held');
      const [held] = await t.app.db.select().from(notifications).where(eq(notifications.id, id));
      expect(held!.emailDueAt!.toISOString()).toBe('2026-01-15T12:00:00.000Z');
      t.app.notifications.clock = at('2026-01-15T11:59:00Z');
      expect(await deliverNotificationEmail(t.app, id)).toBe('waiting');
      t.app.notifications.clock = at('2026-01-15T12:00:00Z');
      expect(await deliverNotificationEmail(t.app, id)).toBe('sent');
      expect(mailsTo()).toHaveLength(before + 1);
      // Held past its deadline, it no longer asks for a reply within minutes long gone.
      expect(readableMail(mailsTo().at(-1)!.raw)).toContain('Nobody replied in time');

      await putProfile(alice.token, {
        ...DEFAULT_NOTIFICATION_PROFILE,
        quiet_hours: { ...quiet, urgent_handoff: true },
      });
      const urgent = await handoffAt('2026-01-15T04:30:00Z');
      expect(urgent.row.urgent).toBe(true);
      t.app.notifications.clock = at('2026-01-15T04:33:00Z');
      expect(await deliverNotificationEmail(t.app, urgent.id)).toBe('sent');
      await putProfile(alice.token, DEFAULT_NOTIFICATION_PROFILE);
    });

    it('a widget whose "E-mail me" switch is off e-mails nobody about its handoffs (the bell still rings)', async () => {
      const widget = (email_owner: boolean) =>
        t.call('PATCH', `/api/applications/${appUuid}/widget/`, {
          token: alice.token,
          json: { takeover: { enabled: true, email_owner } },
        });
      expect((await widget(false)).status).toBe(200);
      const { row } = await handoffAt('2026-03-10T12:00:00Z');
      expect(row.emailStatus).toBe('none');
      expect((await widget(true)).status).toBe(200);
    });
  });

  it('with no delay the queued job sends it at once', async () => {
    t.app.notifications.clock = () => new Date();
    await putProfile(alice.token, { ...DEFAULT_NOTIFICATION_PROFILE, email_delay_minutes: 0 });
    const before = mailsTo().length;
    const visitor = await visitorSession();
    const sent = await visitor('POST', '/messages/', { conversation_uuid: null, message: 'Warranty?' });
    expect((await visitor('POST', `/conversations/${sent.body.conversation.uuid}/handoff/`)).status).toBe(
      200,
    );
    await waitFor(() => mailsTo().length === before + 1, { timeoutMs: 15_000 });
    await putProfile(alice.token, DEFAULT_NOTIFICATION_PROFILE);
  });

  it('"send me a test": an e-mail now, and an in-app notification', async () => {
    const before = mailsTo().length;
    const mail = await t.call('POST', '/api/notifications/test/', {
      token: alice.token,
      json: { channel: 'email' },
    });
    expect(mail.body).toEqual({ channel: 'email', sent_to: alice.user.email });
    expect(mailsTo()).toHaveLength(before + 1);
    expect(mailsTo().at(-1)!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const inApp = await t.call('POST', '/api/notifications/test/', {
      token: alice.token,
      json: { channel: 'in_app' },
    });
    expect(inApp.status).toBe(200);
    // Its own kind: no event of the profile, so no other channel and no digest counts it.
    const test = await notified('test', (n) => n.title === 'Test notification');
    const [row] = await t.app.db.select().from(notifications).where(eq(notifications.uuid, test.uuid));
    expect(row!.emailStatus).toBe('none');
    expect(mailsTo()).toHaveLength(before + 1);
  });

  it('tries a failed send again with growing waits, then gives it up after about a day', async () => {
    expect(EMAIL_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000).toBeCloseTo(22.35, 1);
    const { id, row } = await handoffAt('2026-03-11T10:00:00Z');
    t.app.notifications.clock = () => row.emailDueAt!;
    const jobsOf = async () =>
      (
        await t.database.query<{ failures: number; wait: number }>(
          `SELECT (data->>'failures')::int AS failures,
                  EXTRACT(EPOCH FROM start_after - created_on)::float AS wait
             FROM pgboss.job WHERE name = $1 AND (data->>'notificationId')::int = $2 AND state = 'created'
            ORDER BY created_on`,
          [EMAIL_QUEUE, id],
        )
      ).rows;
    const send = t.app.mailer.send.bind(t.app.mailer);
    const refused = vi.spyOn(t.app.mailer, 'send').mockImplementation(async (to, mail) => {
      if (to === alice.user.email) throw new Error('SMTP is down');
      return send(to, mail);
    });
    try {
      await runEmailJob(t.app, { notificationId: id, failures: 0 });
      // Put back as pending, tried again in a minute, counting the failure.
      const [after] = await t.app.db.select().from(notifications).where(eq(notifications.id, id));
      expect(after!.emailStatus).toBe('pending');
      const retry = (await jobsOf()).at(-1)!;
      expect(retry.failures).toBe(1);
      expect(retry.wait).toBeCloseTo(60, -1);
      // The fourth failure waits an hour.
      await runEmailJob(t.app, { notificationId: id, failures: 3 });
      const later = (await jobsOf()).at(-1)!;
      expect(later.failures).toBe(4);
      expect(later.wait).toBeCloseTo(3600, -1);
      // The last wait spent: given up, nothing queued again.
      const queued = (await jobsOf()).length;
      await runEmailJob(t.app, { notificationId: id, failures: EMAIL_RETRY_DELAYS_MS.length });
      const [given] = await t.app.db.select().from(notifications).where(eq(notifications.id, id));
      expect(given!.emailStatus).toBe('skipped');
      expect(await jobsOf()).toHaveLength(queued);
    } finally {
      refused.mockRestore();
      t.app.notifications.clock = () => new Date();
    }
  });
});

describe('one-click unsubscribe', () => {
  async function linkFor() {
    t.app.notifications.clock = () => new Date();
    await t.call('POST', '/api/notifications/test/', { token: alice.token, json: { channel: 'email' } });
    const mail = t
      .outbox()
      .filter((m) => m.to === alice.user.email)
      .at(-1)!;
    return unsubscribeLink(mail.raw)!;
  }

  it('GET shows a confirmation and changes nothing; the one-click POST turns that event’s e-mail off for that user only', async () => {
    await putProfile(bob.token, DEFAULT_NOTIFICATION_PROFILE);
    const link = await linkFor();
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('A visitor asks for a person');
    expect((await profileOf(alice.token)).events.handoff_requested).toEqual(['email', 'in_app']);

    // What a mail client sends (RFC 8058 §3.2): no cookie, no token header.
    const res = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ event: 'handoff_requested', email: false });
    const after = await profileOf(alice.token);
    expect(after.events.handoff_requested).toEqual(['in_app']);
    expect(after.events.knowledge_failed).toEqual(['email', 'in_app']);
    expect((await profileOf(bob.token)).events.handoff_requested).toEqual(['email', 'in_app']);
    await putProfile(alice.token, DEFAULT_NOTIFICATION_PROFILE);
  });

  it('refuses a tampered token', async () => {
    const link = new URL(await linkFor());
    const token = link.searchParams.get('token')!;
    const [, body, sig] = token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = `cnu1.${Buffer.from(JSON.stringify({ ...claims, u: bob.user.id })).toString('base64url')}.${sig}`;
    for (const bad of [forged, `${token}x`, token.slice(0, -3), 'cnu1.e30.AAAA', 'nonsense']) {
      link.searchParams.set('token', bad);
      const res = await fetch(link, { method: 'POST' });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_token');
      expect((await fetch(link)).status).toBe(400);
    }
    expect((await profileOf(bob.token)).events.handoff_requested).toEqual(['email', 'in_app']);
    expect((await profileOf(alice.token)).events.handoff_requested).toEqual(['email', 'in_app']);
  });
});
