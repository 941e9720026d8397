import { notifications } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { deliverNotificationEmail, EMAIL_SEND_LEASE_MS, notificationMessageId } from './deliver-email.ts';
import { sweepEmails } from './sweep-emails.ts';

/**
 * Notification e-mails across crashes (decision 052): a send claimed by a process that died is sent
 * again once its claim ends, under the same Message-ID; an e-mail whose job was lost is queued again.
 */
let t: TestApp;
let owner: { token: string; user: { id: number; email: string } };
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.signUp();
});
afterAll(() => t.close());

const messageIdOf = (raw: string) => /^Message-ID: (.+)$/im.exec(raw)?.[1]?.trim();
const mailsTo = (title: string) => t.outbox().filter((m) => m.to === owner.user.email && m.subject === title);

async function pendingEmail(title: string, dueAt: Date) {
  const [row] = await t.app.db
    .insert(notifications)
    .values({
      ownerId: owner.user.id,
      event: 'knowledge_failed',
      title,
      emailStatus: 'pending',
      emailDueAt: dueAt,
    })
    .returning();
  return row!;
}

describe('notification e-mails across a crash', () => {
  it('a claim whose sender died is sent once it ends, with the same Message-ID, and only once', async () => {
    const now = Date.now();
    // What a sender killed mid-send leaves: still pending, claimed until a moment from now.
    const row = await pendingEmail('Claimed by a dead sender', new Date(now + EMAIL_SEND_LEASE_MS));
    t.app.notifications.clock = () => new Date(now);
    try {
      // A job meanwhile (pg-boss retrying the dead one) waits for the claim to end: no second copy.
      expect(await deliverNotificationEmail(t.app, row.id)).toBe('waiting');
      expect(mailsTo(row.title)).toHaveLength(0);
      t.app.notifications.clock = () => new Date(now + EMAIL_SEND_LEASE_MS + 1000);
      expect(await deliverNotificationEmail(t.app, row.id)).toBe('sent');
      expect(await deliverNotificationEmail(t.app, row.id)).toBe('gone');
    } finally {
      t.app.notifications.clock = () => new Date();
    }
    const sent = mailsTo(row.title);
    expect(sent).toHaveLength(1);
    expect(messageIdOf(sent[0]!.raw)).toBe(notificationMessageId(t.app, row.id));
    const [after] = await t.app.db.select().from(notifications).where(eq(notifications.id, row.id));
    expect(after!.emailStatus).toBe('sent');
  });

  it('an e-mail stored without its job (the process stopped in between) is queued again and sent', async () => {
    const row = await pendingEmail('Stored without a job', new Date(Date.now() - 5 * 60_000));
    expect(await sweepEmails(t.app)).toBe(1);
    // Its job is waiting now: the next sweep leaves it alone.
    expect(await sweepEmails(t.app)).toBe(0);
    await t.lastMail(owner.user.email);
    for (let i = 0; i < 100 && mailsTo(row.title).length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(mailsTo(row.title)).toHaveLength(1);
  });
});
