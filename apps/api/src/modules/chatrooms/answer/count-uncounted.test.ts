import type { TAttention } from '@cairn/contracts/attention';
import type { Database } from '@cairn/db/client';
import { openTestDatabase } from '@cairn/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { applicationWith } from '../../../testing/chat-fixtures.ts';
import { openChatSocket } from '../../../testing/chat-socket.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { waitFor } from '../../../testing/wait-for.ts';
import { countUncountedAnswers } from './count-uncounted.ts';

/**
 * An uncovered answer is counted in the owner's inbox after its final write. A process that stops in
 * between (kill -9) leaves it uncounted; the next process on the same data counts it when it starts.
 */

const HOURS = {
  title: 'Opening hours',
  text: '# Opening hours\n\nThe shop opens at nine in the morning on weekdays and closes at six.',
};

let database: Database;
let first: TestApp;
let second: TestApp;
afterAll(async () => {
  await first?.close();
  await second?.close();
  await database?.close();
});

describe('uncovered answers left uncounted', () => {
  it('are counted once by the next process on the same data; older than an hour, not', async () => {
    database = await openTestDatabase();
    first = await startTestApp({}, { database });
    const alice = await first.signUp();
    const appUuid = (await applicationWith({ ...first, database }, alice.token, [HOURS])).uuid;
    const socket = await openChatSocket(first.url, alice.token);
    const ask = async (question: string) => {
      const sent = await first.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
        token: alice.token,
        json: {
          chatroom_identifier: 'new_chat',
          message: question,
          sender_identifier: `reg_${alice.user.id}`,
          metadata: { source: 'web' },
        },
      });
      expect(sent.status).toBe(201);
      const answer = await socket.finalOf(sent.body.answer.uuid);
      expect(answer.metadata.not_covered).toBe(true);
      return answer.uuid;
    };
    await ask('Do you ship to Canada?');
    await ask('Can you ship to canada??');
    const old = await ask('Is there a student discount?');
    socket.close();
    const inbox = async (on: TestApp) =>
      (await on.call<TAttention>('GET', `/api/applications/${appUuid}/attention/`, { token: alice.token }))
        .body.unanswered;
    expect(await inbox(first)).toHaveLength(2);

    // The process stopped between the answers' final writes and their grouping: nothing was counted.
    // One of them ended more than an hour before the next process starts.
    await first.app.close();
    await database.query('DELETE FROM unanswered_question_asks');
    await database.query('DELETE FROM unanswered_questions');
    await database.query(`UPDATE messages SET updated_at = now() - interval '2 hours' WHERE uuid = $1`, [
      old,
    ]);

    second = await startTestApp({}, { database });
    const counted = await waitFor(() => inbox(second), {
      until: (groups) => groups.reduce((asks, group) => asks + group.count, 0) >= 2,
    });
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatchObject({ question: 'Do you ship to Canada?', count: 2 });

    // Another process starting counts nothing again, even two at once.
    expect(await Promise.all([countUncountedAnswers(second.app), countUncountedAnswers(second.app)])).toEqual(
      [0, 0],
    );
    await database.query(`DELETE FROM unanswered_question_asks WHERE question = 'Can you ship to canada??'`);
    // Both find it (or the second finds it counted already); it is counted once.
    const both = await Promise.all([countUncountedAnswers(second.app), countUncountedAnswers(second.app)]);
    expect(both[0] + both[1]).toBeGreaterThanOrEqual(1);
    const after = await inbox(second);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ question: 'Do you ship to Canada?', count: 2 });
  });
});
