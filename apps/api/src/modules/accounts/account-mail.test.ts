import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import {
  ACCOUNT_MAIL_QUEUE,
  type AccountMailJob,
  defineAccountMail,
  sendAccountMailJob,
} from './send-account-mail.ts';

/**
 * Account e-mail is a queued job (decision 068): queued before the response, so a process that dies
 * after answering loses no e-mail; the job holds no link token, and running it twice sends the same
 * message, which the receiver can drop.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const messageIdOf = (raw: string) => /^Message-ID: (.+)$/im.exec(raw)?.[1]?.trim();
const resetMails = (to: string) =>
  t.outbox().filter((m) => m.to === to && m.subject === 'Reset your password');
const queued = async (email: string) => {
  const { rows } = await t.database.query<{ data: AccountMailJob; state: string }>(
    `SELECT data, state FROM pgboss.job WHERE name = $1 AND data->>'email' = $2 ORDER BY created_on DESC LIMIT 1`,
    [ACCOUNT_MAIL_QUEUE, email],
  );
  return rows[0];
};

describe('account e-mail across a crash', () => {
  it('is queued by the request, holds no token, and is sent by whichever worker runs next', async () => {
    const { user } = await t.signUp();
    // The worker of the process that answered is gone (as after kill -9 just after the response).
    await t.app.jobs.boss.offWork(ACCOUNT_MAIL_QUEUE);
    try {
      const res = await t.call('POST', '/api/forgot-password/', { json: { email: user.email } });
      expect(res.status).toBe(200);
      const job = await queued(user.email);
      expect(job).toMatchObject({ state: 'created', data: { kind: 'reset_password', email: user.email } });
      await new Promise((r) => setTimeout(r, 1500));
      expect(resetMails(user.email)).toHaveLength(0);
    } finally {
      // A worker starting again (the restarted process, or another one) sends it.
      await defineAccountMail(t.app);
    }
    const mail = await t.lastMail(user.email, 'Reset your password');
    const token = new URL(mail.links.find((l) => l.includes('token='))!).searchParams.get('token')!;
    expect(JSON.stringify((await queued(user.email))!.data)).not.toContain(token);
    const reset = await t.call('POST', '/api/reset-password/', {
      json: { token, password: 'a fresh long passphrase 7' },
    });
    expect(reset.status).toBe(200);
  });

  it('run twice (the sender died before the job was marked done), sends the same message and one token', async () => {
    const { user } = await t.signUp();
    await t.app.jobs.boss.offWork(ACCOUNT_MAIL_QUEUE);
    try {
      await t.call('POST', '/api/forgot-password/', { json: { email: user.email } });
      const job = (await queued(user.email))!;
      await sendAccountMailJob(t.app, job.data);
      await sendAccountMailJob(t.app, job.data);
      const [first, second] = resetMails(user.email);
      expect(second).toBeDefined();
      expect(messageIdOf(first!.raw)).toMatch(/^<account-[0-9a-f-]{36}@/);
      expect(messageIdOf(second!.raw)).toBe(messageIdOf(first!.raw));
      expect(second!.links).toEqual(first!.links);
      const tokens = await t.database.query(
        `SELECT 1 FROM email_tokens WHERE user_id = $1 AND purpose = 'reset_password'`,
        [user.id],
      );
      expect(tokens.rows).toHaveLength(1);
    } finally {
      await defineAccountMail(t.app);
    }
  });

  it('sends nothing for an address without an account, after answering exactly as for one', async () => {
    const res = await t.call('POST', '/api/forgot-password/', { json: { email: 'nobody-here@example.com' } });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => (await queued('nobody-here@example.com'))?.state, { timeout: 15_000 })
      .toBe('completed');
    expect(t.outbox().filter((m) => m.to === 'nobody-here@example.com')).toHaveLength(0);
  });
});
