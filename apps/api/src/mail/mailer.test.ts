import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpCatcher, startSmtpCatcher } from '../testing/smtp-catcher.ts';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../testing/test-app.ts';

let smtp: SmtpCatcher;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await startTestApp({ smtpUrl: smtp.url, mailFrom: 'Cairn <hello@cairn.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('e-mail over SMTP', () => {
  it('delivers the verification e-mail with plain-text and HTML parts, and writes no outbox file', async () => {
    smtp.received.length = 0;
    const res = await t.call('POST', '/api/register/', {
      json: { email: 'smtp-user@example.com', password: TEST_PASSWORD },
    });
    expect(res.status).toBe(201);
    // Sent by a job just after the response (decision 068).
    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(1);
    const [mail] = smtp.received;
    expect(mail!.from).toBe('hello@cairn.test');
    expect(mail!.to).toEqual(['smtp-user@example.com']);
    expect(mail!.raw).toMatch(/^Subject: Verify your e-mail address$/m);
    expect(mail!.raw).toContain('Content-Type: text/plain');
    expect(mail!.raw).toContain('Content-Type: text/html');
    expect(mail!.raw).toMatch(new RegExp(`^${t.config.publicUrl}/verify-email\\?token=[\\w-]{22}$`, 'm'));
    expect(t.outbox()).toEqual([]);
  });

  it('still registers the account when the SMTP server is down (the user can ask for a new link)', async () => {
    const down = await startTestApp({ smtpUrl: 'smtp://127.0.0.1:1' });
    try {
      const res = await down.call('POST', '/api/register/', {
        json: { email: 'later@example.com', password: TEST_PASSWORD },
      });
      expect(res.status).toBe(201);
    } finally {
      await down.close();
    }
  });
});
