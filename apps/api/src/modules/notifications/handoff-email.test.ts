import { DEFAULT_NOTIFICATION_PROFILE } from '@cairn/contracts/notifications';
import type { TWidgetBoot } from '@cairn/contracts/widget';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { readableMail } from '../../testing/mail.ts';
import { type SmtpCatcher, startSmtpCatcher } from '../../testing/smtp-catcher.ts';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { replyByText } from './handoff-deadline.ts';

/**
 * The handoff e-mail through a real SMTP server, on the real clock (issue 21): with the profile's
 * default 3-minute e-mail delay and a 1-minute wait, the owner hears of the visitor at once and is
 * told the minute they have, not after the visitor was already told nobody is available.
 */

const SHOP = 'https://shop.example.com';

/** The plain-text part (before the HTML one). */
const textPart = (raw: string) => readableMail(raw).split(/Content-Type: text\/html/)[0]!;

let smtp: SmtpCatcher;
let t: TestApp;
let owner: { email: string; token: string };
let appUuid: string;

const mailTo = (to: string, subject: RegExp) =>
  smtp.received.filter((m) => m.to.includes(to) && subject.test(readableMail(m.raw)));

/** Registers through the e-mailed link, as a person would (the outbox is empty with SMTP). */
async function signUpOverSmtp(email: string) {
  expect(
    (await t.call('POST', '/api/register/', { json: { email, username: email, password: TEST_PASSWORD } }))
      .status,
  ).toBe(201);
  await waitFor(() => mailTo(email, /Verify your e-mail address/).length === 1);
  const token = /verify-email\?token=([\w-]+)/.exec(readableMail(mailTo(email, /Verify/)[0]!.raw))![1];
  expect((await t.call('POST', '/api/verify-email/', { json: { token } })).status).toBe(200);
  const login = await t.call('POST', '/api/login/', { json: { email, password: TEST_PASSWORD } });
  return { email, token: login.body.token as string };
}

async function visitorAsksForPerson(question: string) {
  const page = await fetch(`${t.url}/embed/v1/${appUuid}?origin=${encodeURIComponent(SHOP)}`);
  const boot = JSON.parse(
    /<script id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(await page.text())![1]!,
  ) as TWidgetBoot;
  const headers = { authorization: `Bearer ${boot.token}` };
  const sent = await t.call('POST', '/api/widget/v1/messages/', {
    headers,
    json: { conversation_uuid: null, message: question },
  });
  expect(sent.status).toBe(201);
  const room = sent.body.conversation.uuid as string;
  const handoff = await t.call('POST', `/api/widget/v1/conversations/${room}/handoff/`, { headers });
  expect(handoff.status).toBe(200);
  return { room, waitingSince: new Date(handoff.body.waiting_since as string) };
}

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await startTestApp({ smtpUrl: smtp.url });
  owner = await signUpOverSmtp('handoff-owner@example.com');
  appUuid = (
    await applicationWith(t, owner.token, [
      { title: 'Opening hours', text: '# Hours\n\nThe shop opens at 9 on weekdays.' },
    ])
  ).uuid;
  const widget = await t.call('PATCH', `/api/applications/${appUuid}/widget/`, {
    token: owner.token,
    json: { enabled: true, allowed_origins: [SHOP], takeover: { enabled: true, wait_minutes: 1 } },
  });
  expect(widget.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('the handoff e-mail', () => {
  it('goes out at once despite the 3-minute e-mail delay, and says the minute that is left', async () => {
    const profile = await t.call('GET', '/api/notification-profile/', { token: owner.token });
    expect(profile.body.email_delay_minutes).toBe(DEFAULT_NOTIFICATION_PROFILE.email_delay_minutes);
    const asked = Date.now();
    const { room, waitingSince } = await visitorAsksForPerson('Do you open on Sundays?');
    // Well inside the minute the owner has (the delay would have held it for three).
    await expect.poll(() => mailTo(owner.email, /waiting for a person/).length, { timeout: 20_000 }).toBe(1);
    expect(Date.now() - asked).toBeLessThan(60_000);
    const text = textPart(mailTo(owner.email, /waiting for a person/)[0]!.raw);
    expect(text).toContain('“Do you open on Sundays?”');
    expect(text).not.toContain('?.');
    expect(text).toMatch(/Reply within (1 minute|less than a minute) \(by \d\d:\d\d UTC\)/);
    const deadline = new Date(waitingSince.getTime() + 60_000);
    const hhmm = deadline.toISOString().slice(11, 16);
    expect(text).toContain(`(by ${hhmm} UTC)`);
    expect(text).toContain(`/applications/${appUuid}/messages/${room}`);
  });
});

describe('what the deadline sentence says', () => {
  const replyBy = new Date('2026-03-10T14:05:00Z');
  it('counts what is left when the message goes out, in the owner’s time zone', () => {
    expect(replyByText(replyBy, new Date('2026-03-10T14:00:00Z'), 'UTC')).toMatch(
      /^Reply within 5 minutes \(by 14:05 UTC\);/,
    );
    expect(replyByText(replyBy, new Date('2026-03-10T14:03:10Z'), 'Europe/Paris')).toMatch(
      /^Reply within 2 minutes \(by 15:05 CET\);/,
    );
    expect(replyByText(replyBy, new Date('2026-03-10T14:04:00Z'), 'UTC')).toMatch(
      /^Reply within 1 minute \(/,
    );
    expect(replyByText(replyBy, new Date('2026-03-10T14:04:45Z'), 'UTC')).toMatch(
      /^Reply within less than a minute \(/,
    );
  });
  it('says the assistant took over again once the time is up', () => {
    expect(replyByText(replyBy, replyBy, 'UTC')).toMatch(/^Nobody replied in time/);
  });
});
