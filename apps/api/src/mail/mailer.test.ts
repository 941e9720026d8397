import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../testing/test-app.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let received: Received[] = [];
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  const { port } = smtp.server.address() as AddressInfo;
  t = await startTestApp({ smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Cairn <hello@cairn.test>' });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('e-mail over SMTP', () => {
  it('delivers the verification e-mail with plain-text and HTML parts, and writes no outbox file', async () => {
    received = [];
    const res = await t.call('POST', '/api/register/', {
      json: { email: 'smtp-user@example.com', password: TEST_PASSWORD },
    });
    expect(res.status).toBe(201);
    // Sent just after the response (decision 057).
    await expect.poll(() => received.length).toBe(1);
    const [mail] = received;
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
