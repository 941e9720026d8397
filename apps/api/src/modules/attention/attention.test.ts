import type { TAttention } from '@cairn/contracts/attention';
import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { openChatSocket } from '../../testing/chat-socket.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { NOT_COVERED_ANSWER } from '../chatrooms/answer/no-answer.ts';
import { recordAnswerOutcome } from './record-unanswered.ts';

let t: TestApp;
let alice: { token: string; user: { id: number } };
let bob: { token: string; user: { id: number } };
let appId: string;
let socket: Awaited<ReturnType<typeof openChatSocket>>;

const HOURS = {
  title: 'Opening hours',
  text: '# Opening hours\n\nThe shop opens at nine in the morning on weekdays and closes at six.',
};

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
  appId = (await applicationWith(t, alice.token, [HOURS])).uuid;
  socket = await openChatSocket(t.url, alice.token);
});
afterAll(async () => {
  socket.close();
  await t.close();
});

const attention = (token = alice.token, app = appId) =>
  t.call<TAttention>('GET', `/api/applications/${app}/attention/`, { token });

/** Asks in a new chatroom and waits for the answer; returns the chatroom and the final answer. */
async function ask(question: string, chatroom = 'new_chat', app = appId) {
  const sent = await t.call('POST', `/api/applications/${app}/chatrooms/send-message/`, {
    token: alice.token,
    json: {
      chatroom_identifier: chatroom,
      message: question,
      sender_identifier: `reg_${alice.user.id}`,
      metadata: { source: 'web' },
      send_to_user: false,
    },
  });
  expect(sent.status).toBe(201);
  const answer = await socket.finalOf(sent.body.answer.uuid);
  return { chatroom: sent.body.chatroom as { uuid: string; name: string }, answer };
}

describe('unanswered questions', () => {
  let shipping: string;

  it('lists an uncovered question, groups similar ones with a count and keeps a different one apart', async () => {
    const first = await ask('Do you ship to Canada?');
    expect(first.answer.message).toBe(NOT_COVERED_ANSWER);
    const second = await ask('Can you ship to canada??');
    const third = await ask('Shipping to Canada, please?');
    const other = await ask('Is there a student discount?');
    // Covered by the knowledge: not listed.
    const covered = await ask('When does the shop open in the morning?');
    expect(covered.answer.metadata.not_covered).toBeUndefined();

    const res = await attention();
    expect(res.status).toBe(200);
    expect(res.body.unanswered).toHaveLength(2);
    const [latest, group] = res.body.unanswered;
    expect(latest).toMatchObject({ question: 'Is there a student discount?', count: 1 });
    expect(latest!.chatrooms).toEqual([
      { uuid: other.chatroom.uuid, name: other.chatroom.name, asked_at: expect.any(String) },
    ]);
    expect(group).toMatchObject({ question: 'Do you ship to Canada?', count: 3 });
    expect(group!.chatrooms.map((c) => c.uuid)).toEqual([third, second, first].map((q) => q.chatroom.uuid));
    expect(new Date(group!.last_asked_at).getTime()).toBeLessThanOrEqual(
      new Date(latest!.last_asked_at).getTime(),
    );
    shipping = group!.uuid;
  });

  it('a regenerated answer is counted once', async () => {
    const before = (await attention()).body.unanswered.find((q) => q.uuid === shipping)!;
    const { rows } = await t.database.query<{ chatroom: string; message: string }>(
      `SELECT c.uuid AS chatroom, m.uuid AS message FROM unanswered_question_asks a
         JOIN chatrooms c ON c.id = a.chatroom_id JOIN messages m ON m.id = a.answer_id
         WHERE a.question = 'Do you ship to Canada?'`,
    );
    const again = await t.call(
      'POST',
      `/api/applications/${appId}/chatrooms/${rows[0]!.chatroom}/messages/${rows[0]!.message}/regenerate/`,
      { token: alice.token },
    );
    expect(again.status).toBe(200);
    await socket.finalOf(rows[0]!.message);
    await new Promise((r) => setTimeout(r, 100));
    const after = (await attention()).body.unanswered.find((q) => q.uuid === shipping)!;
    expect(after.count).toBe(before.count);
  });

  it('"add to knowledge" creates a Q&A pair that, once ready, answers the question with the owner’s words', async () => {
    const answer = 'Yes, we ship to Canada: parcels to Canada arrive within five working days.';
    const res = await t.call<TKnowledgeItem>(
      'POST',
      `/api/applications/${appId}/attention/unanswered/${shipping}/answer/`,
      { token: alice.token, json: { answer } },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'qa',
      title: 'Do you ship to Canada?',
      source: null,
      qa: { question: 'Do you ship to Canada?', answer, alternatives: [] },
    });
    expect(['queued', 'processing', 'ready']).toContain(res.body.status);
    expect((await attention()).body.unanswered.map((q) => q.uuid)).not.toContain(shipping);

    // The item goes through ingestion as usual.
    let status = res.body.status;
    for (let i = 0; i < 200 && status !== 'ready' && status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const item = await t.call('GET', `/api/applications/${appId}/knowledge/${res.body.uuid}/`, {
        token: alice.token,
      });
      status = item.body.status;
    }
    expect(status).toBe('ready');

    const asked = await ask('Do you ship to Canada?');
    expect(asked.answer.metadata.not_covered).toBeUndefined();
    expect(asked.answer.metadata.sources).toEqual(
      expect.arrayContaining([expect.objectContaining({ item_uuid: res.body.uuid })]),
    );
    expect(asked.answer.message).toBe(answer);
    expect(asked.answer.metadata.qa_match).toMatchObject({ item_uuid: res.body.uuid, score: 1 });
    expect((await attention()).body.unanswered.map((q) => q.question)).not.toContain(
      'Do you ship to Canada?',
    );

    // Answered once: a second answer is refused rather than making a second item.
    const twice = await t.call(
      'POST',
      `/api/applications/${appId}/attention/unanswered/${shipping}/answer/`,
      {
        token: alice.token,
        json: { answer },
      },
    );
    expect(twice.status).toBe(404);
  });

  it('dismiss hides a question, also when it is asked again', async () => {
    const before = (await attention()).body.unanswered;
    const discount = before.find((q) => q.question === 'Is there a student discount?')!;
    const res = await t.call(
      'POST',
      `/api/applications/${appId}/attention/unanswered/${discount.uuid}/dismiss/`,
      {
        token: alice.token,
      },
    );
    expect(res.status).toBe(204);
    expect((await attention()).body.unanswered.map((q) => q.uuid)).not.toContain(discount.uuid);
    await ask('Is there a discount for students?');
    expect((await attention()).body.unanswered).toEqual([]);
  });

  it('refuses bad bodies with the documented error body', async () => {
    const group = await ask('Can I pay with bitcoin?');
    const id = (await attention()).body.unanswered[0]!.uuid;
    expect(group.answer.metadata.not_covered).toBe(true);
    const path = `/api/applications/${appId}/attention/unanswered/${id}/answer/`;
    for (const json of [{}, { answer: '   ' }, { answer: 42 }, { answer: 'x'.repeat(200_001) }]) {
      const res = await t.call('POST', path, { token: alice.token, json });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid', detail: expect.any(String) });
      expect(res.body.errors.answer).toEqual([expect.any(String)]);
    }
    const malformed = await t.call('POST', path, { token: alice.token, raw: '{"answer":' });
    expect(malformed.status).toBe(400);
    const badId = await t.call(
      'POST',
      `/api/applications/${appId}/attention/unanswered/not-a-uuid/dismiss/`,
      {
        token: alice.token,
      },
    );
    // A malformed id is a forged id: not found, like someone else's.
    expect(badId.status).toBe(404);
    expect((await attention()).body.unanswered.map((q) => q.uuid)).toContain(id);
  });
});

describe('grouping', () => {
  it('a question without words joins only another without words; an answer counted once starts no group', async () => {
    const other = (await applicationWith(t, alice.token, [HOURS])).uuid;
    const asked = [];
    for (const question of ['When does the shop open?', 'Does the shop open at nine?', 'Is it open at six?'])
      asked.push(await ask(question, 'new_chat', other));
    expect(asked.map((a) => a.answer.metadata.not_covered)).toEqual([undefined, undefined, undefined]);
    const { rows } = await t.database.query<{ id: number; chatroom_id: number; application_id: number }>(
      `SELECT m.id, m.chatroom_id, c.application_id FROM messages m JOIN chatrooms c ON c.id = m.chatroom_id
         WHERE m.uuid = ANY($1::uuid[]) ORDER BY m.id`,
      [`{${asked.map((a) => a.answer.uuid).join(',')}}`],
    );
    // Counted as if each had said the knowledge does not cover it.
    const record = (row: (typeof rows)[number], question: string) =>
      recordAnswerOutcome(t.database.db, {
        applicationId: row.application_id,
        chatroomId: row.chatroom_id,
        answer: { id: row.id, run: 0, status: 'complete', metadata: { not_covered: true } },
        question,
      });
    await record(rows[0]!, '???');
    await record(rows[1]!, 'Do you ship?');
    await record(rows[2]!, '!!');
    const grouped = (await attention(alice.token, other)).body.unanswered;
    expect(grouped.map((q) => [q.question, q.count])).toEqual([
      ['???', 2],
      ['Do you ship?', 1],
    ]);
    // Counted already: nothing is added, though no group is like the question.
    await record(rows[1]!, 'Is there a student discount?');
    expect((await attention(alice.token, other)).body.unanswered).toEqual(grouped);
  });

  it('similar questions counted at once make one group, and an ask that cannot be stored loses no other', async () => {
    const other = (await applicationWith(t, alice.token, [HOURS])).uuid;
    const asked = [];
    for (let i = 0; i < 6; i++) asked.push(await ask(`When does the shop open? (${i})`, 'new_chat', other));
    const { rows } = await t.database.query<{ id: number; chatroom_id: number; application_id: number }>(
      `SELECT m.id, m.chatroom_id, c.application_id FROM messages m JOIN chatrooms c ON c.id = m.chatroom_id
         WHERE m.uuid = ANY($1::uuid[]) ORDER BY m.id`,
      [`{${asked.map((a) => a.answer.uuid).join(',')}}`],
    );
    const record = (row: (typeof rows)[number], question: string, answerId = row.id) =>
      recordAnswerOutcome(t.database.db, {
        applicationId: row.application_id,
        chatroomId: row.chatroom_id,
        answer: { id: answerId, run: 0, status: 'complete', metadata: { not_covered: true } },
        question,
      });
    // The first runs at once; the others arrive while it runs and are counted together after it,
    // among them an answer that does not exist (its ask breaks the foreign key).
    const outcomes = await Promise.allSettled([
      record(rows[0]!, 'Do you ship to Norway?'),
      record(rows[1]!, 'Do you ship to Norway'),
      record(rows[2]!, 'Do you ship to Norway?', 2_000_000_000),
      record(rows[3]!, 'do you SHIP to norway?'),
      record(rows[4]!, 'Is there a student discount?'),
      record(rows[5]!, 'Is there a student discount'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const grouped = (await attention(alice.token, other)).body.unanswered;
    expect(grouped.map((q) => [q.question, q.count])).toEqual([
      ['Is there a student discount?', 2],
      ['Do you ship to Norway?', 3],
    ]);
  });
});

describe('waiting conversations and 👎 answers', () => {
  it('lists chatrooms waiting for a person, oldest first, and 👎 answers, newest first', async () => {
    const a = await ask('When does the shop open?');
    const b = await ask('Does the shop open at nine?');
    // A visitor's request for a person, as the widget's handoff stores it.
    await t.database.query(
      `UPDATE chatrooms SET waiting_since = now() - interval '12 minutes', handled_by = 'human', started_on = 'https://shop.example.com/help' WHERE uuid = $1`,
      [b.chatroom.uuid],
    );
    await t.database.query(
      `UPDATE chatrooms SET waiting_since = now() - interval '2 minutes', handled_by = 'human' WHERE uuid = $1`,
      [a.chatroom.uuid],
    );
    for (const q of [a, b]) {
      const rated = await t.call(
        'PUT',
        `/api/applications/${appId}/chatrooms/${q.chatroom.uuid}/messages/${q.answer.uuid}/feedback/`,
        { token: alice.token, json: { feedback: 'down' } },
      );
      expect(rated.status).toBe(200);
    }
    const res = await attention();
    expect(res.body.waiting).toEqual([
      {
        uuid: b.chatroom.uuid,
        name: b.chatroom.name,
        source: 'web',
        waiting_since: expect.any(String),
        started_on: 'https://shop.example.com/help',
      },
      expect.objectContaining({ uuid: a.chatroom.uuid, started_on: null }),
    ]);
    expect(Date.now() - new Date(res.body.waiting[0]!.waiting_since).getTime()).toBeGreaterThan(11 * 60_000);
    // The sidebar's badge counts what the page lists: waiting, open questions and bad answers.
    const counted = await t.call('GET', `/api/applications/${appId}/attention/count/`, {
      token: alice.token,
    });
    expect(counted.body).toEqual({
      waiting: 2,
      unanswered: res.body.unanswered.length,
      negative_feedback: res.body.negative_feedback.length,
    });
    expect(counted.body.negative_feedback).toBeGreaterThan(0);
    expect(counted.body.unanswered).toBeGreaterThan(0);
    expect(res.body.negative_feedback).toEqual([
      {
        message_uuid: b.answer.uuid,
        question: 'Does the shop open at nine?',
        answer_excerpt: expect.stringContaining('The shop opens at nine in the morning'),
        answered_at: expect.any(String),
        chatroom: { uuid: b.chatroom.uuid, name: b.chatroom.name },
      },
      expect.objectContaining({ message_uuid: a.answer.uuid, question: 'When does the shop open?' }),
    ]);

    // Plain text: the answer's markdown marks and citation numbers are left out.
    expect(res.body.negative_feedback[0]!.answer_excerpt).not.toMatch(/\*\*|\[1\]/);
    const dismissed = await t.call(
      'POST',
      `/api/applications/${appId}/attention/negative-feedback/${b.answer.uuid}/dismiss/`,
      { token: alice.token },
    );
    expect(dismissed.status).toBe(204);
    const recounted = await t.call('GET', `/api/applications/${appId}/attention/count/`, {
      token: alice.token,
    });
    expect(recounted.body.negative_feedback).toBe(counted.body.negative_feedback - 1);
    expect((await attention()).body.negative_feedback.map((f) => f.message_uuid)).toEqual([a.answer.uuid]);
    // A question is no 👎 answer.
    const notRated = await t.call(
      'POST',
      `/api/applications/${appId}/attention/negative-feedback/${a.chatroom.uuid}/dismiss/`,
      { token: alice.token },
    );
    expect(notRated.status).toBe(404);
  });
});

describe('owner scoping', () => {
  it("another user's application, its questions and answers are not found", async () => {
    const mine = (await attention()).body;
    const id = mine.unanswered[0]!.uuid;
    const rated = mine.negative_feedback[0]!.message_uuid;
    expect((await attention(bob.token)).status).toBe(404);
    expect(
      (await t.call('GET', `/api/applications/${appId}/attention/count/`, { token: bob.token })).status,
    ).toBe(404);
    const bobApp = (await t.call('POST', '/api/applications/', { token: bob.token, json: { name: 'Bob' } }))
      .body.uuid as string;
    expect((await attention(bob.token, bobApp)).body).toEqual({
      waiting: [],
      unanswered: [],
      negative_feedback: [],
    });
    const calls: Array<[string, unknown]> = [
      [`/api/applications/${appId}/attention/unanswered/${id}/dismiss/`, undefined],
      [`/api/applications/${bobApp}/attention/unanswered/${id}/dismiss/`, undefined],
      [`/api/applications/${bobApp}/attention/unanswered/${id}/answer/`, { answer: 'Mine now' }],
      [`/api/applications/${bobApp}/attention/negative-feedback/${rated}/dismiss/`, undefined],
      // A forged id.
      [`/api/applications/${bobApp}/attention/unanswered/${crypto.randomUUID()}/dismiss/`, undefined],
    ];
    for (const [path, json] of calls) {
      const res = await t.call('POST', path, { token: bob.token, ...(json !== undefined && { json }) });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    expect((await attention()).body).toEqual(mine);
    expect((await t.call('GET', `/api/applications/${appId}/attention/`)).status).toBe(401);
  });
});
