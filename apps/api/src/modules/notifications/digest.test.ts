import { DEFAULT_NOTIFICATION_PROFILE } from '@cairn/contracts/notifications';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readableMail } from '../../testing/mail.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { DIGEST_QUEUE, DIGEST_SEND_LEASE_MS, digestMessageId, sendDueDigests } from './digest.ts';

/** The digest under a test clock: at the owner's local hour, about the period, silent when empty. */

let t: TestApp;
let alice: { token: string; user: { id: number; email: string } };
let bob: { token: string; user: { id: number; email: string } };
let appUuid: string;

const at = (iso: string) => {
  t.app.notifications.clock = () => new Date(iso);
};
const mailsTo = (email: string) => t.outbox().filter((m) => m.to === email);

/** A knowledge item that fails, notified at the clock's time. */
async function failure(url: string) {
  const form = new FormData();
  form.append('items[0].type', 'url');
  form.append('items[0].value', url);
  expect(
    (await t.call('POST', `/api/applications/${appUuid}/knowledge/`, { token: alice.token, form })).status,
  ).toBe(201);
  await waitFor(
    async () => {
      const bell = await t.call('GET', '/api/notifications/', { token: alice.token });
      return bell.body.results.some((n: { title: string }) => n.title.includes(url));
    },
    { timeoutMs: 15_000 },
  );
}

beforeAll(async () => {
  t = await startTestApp();
  // The every-10-minutes run would use the test clock too, at a moment the test does not choose.
  await t.app.jobs.boss.unschedule(DIGEST_QUEUE);
  alice = await t.signUp();
  bob = await t.signUp();
  appUuid = (await t.call('POST', '/api/applications/', { token: alice.token, json: { name: 'Lighthouse' } }))
    .body.uuid;
  // Tokyo is UTC+9 all year: 08:00 there is 23:00 UTC the day before.
  const daily = { ...DEFAULT_NOTIFICATION_PROFILE, digest: 'daily', digest_hour: 8, time_zone: 'Asia/Tokyo' };
  expect(
    (await t.call('PUT', '/api/notification-profile/', { token: alice.token, json: daily })).status,
  ).toBe(200);
  expect((await t.call('PUT', '/api/notification-profile/', { token: bob.token, json: daily })).status).toBe(
    200,
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('digest', () => {
  it('goes out at the chosen hour in the owner’s time zone, once, about the period; nothing when empty', async () => {
    at('2026-05-10T12:00:00Z');
    await failure('http://127.0.0.1:1/first');

    at('2026-05-10T22:50:00Z'); // 07:50 in Tokyo
    expect(await sendDueDigests(t.app)).toEqual([]);
    at('2026-05-10T23:10:00Z'); // 08:10 in Tokyo
    // Bob has nothing to be told: no e-mail for him.
    expect(await sendDueDigests(t.app)).toEqual([alice.user.id]);
    expect(mailsTo(bob.user.email).filter((m) => m.subject.includes('digest'))).toEqual([]);
    const mail = mailsTo(alice.user.email).at(-1)!;
    expect(mail.subject).toBe('Your daily Cairn digest: 1 thing to look at');
    const body = readableMail(mail.raw);
    expect(body).toContain('Lighthouse:');
    expect(body).toContain('A knowledge item could not be indexed: http://127.0.0.1:1/first');
    expect(body).toContain(`${t.url}/applications/${appUuid}/knowledge-base`);
    expect(body).toMatch(/^List-Unsubscribe: <.+\/api\/notifications\/unsubscribe\/\?token=cnu1\..+>$/m);
    expect(body).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);

    // The same hour again: already sent.
    at('2026-05-10T23:50:00Z');
    expect(await sendDueDigests(t.app)).toEqual([]);

    // The next day: only what happened since the last one.
    at('2026-05-11T09:00:00Z');
    await failure('http://127.0.0.1:1/second');
    at('2026-05-11T23:05:00Z');
    expect(await sendDueDigests(t.app)).toEqual([alice.user.id]);
    const next = readableMail(mailsTo(alice.user.email).at(-1)!.raw);
    expect(next).toContain('http://127.0.0.1:1/second');
    expect(next).not.toContain('http://127.0.0.1:1/first');
    // And a day with nothing: silence.
    at('2026-05-12T23:05:00Z');
    expect(await sendDueDigests(t.app)).toEqual([]);
  });

  it('weekly goes out on Mondays only; its one-click link turns the digest off', async () => {
    const weekly = { ...DEFAULT_NOTIFICATION_PROFILE, digest: 'weekly', digest_hour: 8, time_zone: 'UTC' };
    expect(
      (await t.call('PUT', '/api/notification-profile/', { token: alice.token, json: weekly })).status,
    ).toBe(200);
    at('2026-05-13T10:00:00Z');
    await failure('http://127.0.0.1:1/third');
    at('2026-05-16T08:05:00Z'); // a Saturday
    expect(await sendDueDigests(t.app)).toEqual([]);
    at('2026-05-18T08:05:00Z'); // Monday
    expect(await sendDueDigests(t.app)).toEqual([alice.user.id]);
    const mail = mailsTo(alice.user.email).at(-1)!;
    expect(mail.subject).toBe('Your weekly Cairn digest: 1 thing to look at');
    const link = /^List-Unsubscribe: <(.+)>$/m.exec(readableMail(mail.raw))![1]!;
    const res = await fetch(link, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(await res.json()).toEqual({ event: 'digest', email: false });
    const profile = await t.call('GET', '/api/notification-profile/', { token: alice.token });
    expect(profile.body).toMatchObject({ digest: 'off', events: DEFAULT_NOTIFICATION_PROFILE.events });
  });

  it('leaves "send me a test" out, and sends again at the next run when the e-mail failed', async () => {
    const daily = { ...DEFAULT_NOTIFICATION_PROFILE, digest: 'daily', digest_hour: 8, time_zone: 'UTC' };
    expect(
      (await t.call('PUT', '/api/notification-profile/', { token: alice.token, json: daily })).status,
    ).toBe(200);
    at('2026-06-01T10:00:00Z');
    await failure('http://127.0.0.1:1/fourth');
    const test = await t.call('POST', '/api/notifications/test/', {
      token: alice.token,
      json: { channel: 'in_app' },
    });
    expect(test.status).toBe(200);

    const send = t.app.mailer.send.bind(t.app.mailer);
    const refused = vi.spyOn(t.app.mailer, 'send').mockImplementation(async (to, mail) => {
      if (to === alice.user.email) throw new Error('SMTP is down');
      return send(to, mail);
    });
    const before = mailsTo(alice.user.email).length;
    try {
      at('2026-06-02T08:00:00Z');
      expect(await sendDueDigests(t.app)).toEqual([]);
    } finally {
      refused.mockRestore();
    }
    expect(mailsTo(alice.user.email)).toHaveLength(before);
    // The run 10 minutes later, in the same hour, finds the digest unsent and sends it.
    at('2026-06-02T08:10:00Z');
    expect(await sendDueDigests(t.app)).toEqual([alice.user.id]);
    const mail = mailsTo(alice.user.email).at(-1)!;
    expect(mail.subject).toBe('Your daily Cairn digest: 1 thing to look at');
    const body = readableMail(mail.raw);
    expect(body).toContain('http://127.0.0.1:1/fourth');
    expect(body).not.toContain('Test notification');
    // And once only.
    at('2026-06-02T08:20:00Z');
    expect(await sendDueDigests(t.app)).toEqual([]);
  });

  it('a digest whose sender died mid-send is sent again once its claim ends, same Message-ID, then never again', async () => {
    const daily = { ...DEFAULT_NOTIFICATION_PROFILE, digest: 'daily', digest_hour: 8, time_zone: 'UTC' };
    expect(
      (await t.call('PUT', '/api/notification-profile/', { token: alice.token, json: daily })).status,
    ).toBe(200);
    at('2026-07-01T10:00:00Z');
    await failure('http://127.0.0.1:1/fifth');
    const digests = () => mailsTo(alice.user.email).filter((m) => m.subject.includes('digest'));
    const messageIdOf = (raw: string) => /^Message-ID: (.+)$/im.exec(raw)?.[1]?.trim();
    const before = digests().length;

    // The process dies while the mail system has the digest: it is delivered, but never recorded
    // (the send never returns, as a SIGKILL leaves it).
    const send = t.app.mailer.send.bind(t.app.mailer);
    const dying = vi.spyOn(t.app.mailer, 'send').mockImplementation(async (to, mail) => {
      await send(to, mail);
      if (to === alice.user.email) await new Promise(() => {});
    });
    const periodEnd = new Date('2026-07-02T08:00:00Z');
    try {
      at(periodEnd.toISOString());
      void sendDueDigests(t.app);
      await waitFor(async () => digests().length === before + 1, { timeoutMs: 15_000 });
    } finally {
      dying.mockRestore();
    }
    // Another process (or this one restarted) meanwhile: the claim is its sender's, no second copy.
    at('2026-07-02T08:03:00Z');
    expect(await sendDueDigests(t.app)).toEqual([]);
    expect(digests()).toHaveLength(before + 1);

    // Once the claim ended the sender is taken for dead: the same digest (same period, text and
    // Message-ID) is sent again, even outside the owner's hour, so the mail system drops the copy.
    at(new Date(periodEnd.getTime() + DIGEST_SEND_LEASE_MS + 60_000).toISOString());
    expect(await sendDueDigests(t.app)).toEqual([alice.user.id]);
    const [first, again] = digests().slice(before);
    expect(messageIdOf(again!.raw)).toBe(digestMessageId(t.app, alice.user.id, periodEnd));
    expect(messageIdOf(first!.raw)).toBe(messageIdOf(again!.raw));
    expect(readableMail(again!.raw)).toContain('http://127.0.0.1:1/fifth');
    expect(again!.subject).toBe(first!.subject);

    // Recorded now: later runs of that hour and the next day's (nothing new) send nothing.
    at('2026-07-02T08:20:00Z');
    expect(await sendDueDigests(t.app)).toEqual([]);
    at('2026-07-03T08:05:00Z');
    expect(await sendDueDigests(t.app)).toEqual([]);
    expect(digests()).toHaveLength(before + 2);
  });

  it('a digest claimed by a sender that died before sending is not lost', async () => {
    at('2026-07-04T10:00:00Z');
    await failure('http://127.0.0.1:1/sixth');
    const digests = () => mailsTo(alice.user.email).filter((m) => m.subject.includes('digest'));
    const before = digests().length;
    // Dies after its claim, before the mail system has anything.
    const dying = vi.spyOn(t.app.mailer, 'send').mockImplementation(() => new Promise(() => {}));
    try {
      at('2026-07-05T08:00:00Z');
      void sendDueDigests(t.app);
      await waitFor(async () => dying.mock.calls.length > 0, { timeoutMs: 15_000 });
    } finally {
      dying.mockRestore();
    }
    expect(digests()).toHaveLength(before);
    // The next hours are not the owner's: the claim alone brings the digest back.
    at('2026-07-05T09:10:00Z');
    expect(await sendDueDigests(t.app)).toEqual([alice.user.id]);
    expect(digests()).toHaveLength(before + 1);
    expect(readableMail(digests().at(-1)!.raw)).toContain('http://127.0.0.1:1/sixth');
    at('2026-07-05T09:20:00Z');
    expect(await sendDueDigests(t.app)).toEqual([]);
  });
});
