import { DEFAULT_NOTIFICATION_PROFILE } from '@cairn/contracts/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { openChatSocket } from '../../testing/chat-socket.ts';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { deleteExpiredConversations } from './delete-expired-conversations.ts';
import { RETENTION_QUEUE } from './retention-plugin.ts';

const DAY = 86_400_000;
const MANUAL = { title: 'X200 manual', text: '# Warranty\n\nThe X200 comes with a three-year warranty.' };

let t: TestApp;
let owner: { token: string; user: { id: number } };
let kept: { uuid: string };
let trimmed: { uuid: string };

const key = async (app: string) =>
  (await t.call('POST', `/api/applications/${app}/api-keys/`, { token: owner.token, json: { name: 'K' } }))
    .body.key as string;
/** One Responses API conversation; resolves to its response id and conversation uuid. */
const ask = async (apiKey: string, app: string, input: string) => {
  const res = await t.call('POST', '/api/v1/responses', {
    headers: { authorization: `Bearer ${apiKey}` },
    json: { model: app, input },
  });
  expect(res.status).toBe(200);
  return { response: res.body.id as string, room: res.body.conversation_id as string };
};
const age = (room: string, days: number) =>
  t.database.query(
    `UPDATE chatrooms SET last_message_at = now() - make_interval(days => $2) WHERE uuid = $1`,
    [room, days],
  );
const exists = async (table: string, where: string, values: unknown[]) =>
  Number(
    (await t.database.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, values))
      .rows[0]!.n,
  );
const roomExists = (room: string) => exists('chatrooms', 'uuid = $1', [room]);

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.signUp();
  // Every event in the bell, so the rooms have notifications to take with them.
  const everything = Object.fromEntries(
    Object.keys(DEFAULT_NOTIFICATION_PROFILE.events).map((event) => [event, ['in_app']]),
  );
  const profile = await t.call('PUT', '/api/notification-profile/', {
    token: owner.token,
    json: { ...DEFAULT_NOTIFICATION_PROFILE, events: everything },
  });
  expect(profile.status).toBe(200);
  trimmed = await applicationWith(t, owner.token, [MANUAL]);
  kept = await applicationWith(t, owner.token, [MANUAL]);
});
afterAll(() => t.close());

describe('conversation retention', () => {
  it('deletes conversations older than the retention with what holds their text, in batches, and keeps the rest', async () => {
    const trimmedKey = await key(trimmed.uuid);
    const keptKey = await key(kept.uuid);
    const old = await ask(trimmedKey, trimmed.uuid, 'How long is the X200 warranty?');
    const uncovered = await ask(trimmedKey, trimmed.uuid, 'Do you ship penguins to Mars?');
    const recent = await ask(trimmedKey, trimmed.uuid, 'How long is the X200 warranty?');
    const otherApp = await ask(keptKey, kept.uuid, 'How long is the X200 warranty?');
    const ownChat = await t.call('POST', `/api/applications/${trimmed.uuid}/chatrooms/send-message/`, {
      token: owner.token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'An old chat of my own',
        sender_identifier: `reg_${owner.user.id}`,
        send_to_user: true,
      },
    });
    expect(ownChat.status).toBe(201);
    const own = ownChat.body.chatroom.uuid as string;
    await productEventsSettled(t.app);
    await age(own, 95);
    await waitFor(async () => (await exists('unanswered_question_asks', 'true', [])) === 1);
    await age(old.room, 120);
    await age(uncovered.room, 91);
    await age(recent.room, 89);
    await age(otherApp.room, 4000);
    const { rows } = await t.database.query<{ id: number }>('SELECT id FROM applications WHERE uuid = $1', [
      trimmed.uuid,
    ]);
    const appId = rows[0]!.id;
    await t.database.query(
      `INSERT INTO analytics_days (application_id, day, conversations, messages) VALUES ($1, '2020-01-01', 3, 6)`,
      [appId],
    );
    expect(await exists('notifications', 'chatroom_id IS NOT NULL', [])).toBeGreaterThan(0);
    const set = await t.call('PATCH', `/api/applications/${trimmed.uuid}/`, {
      token: owner.token,
      json: { conversation_retention_days: 90 },
    });
    expect(set.status).toBe(200);

    const socket = await openChatSocket(t.url, owner.token);
    // A batch of one: the loop must go on until nothing is left.
    expect(await deleteExpiredConversations(t.app, new Date(), 1)).toBe(3);
    expect(await roomExists(own)).toBe(0);
    // The sidebar's room leaves open pages live; the API ones were in no live list.
    await waitFor(() => socket.events.some((e) => e.kind === 'chatroom_deleted' && e.chatroom_uuid === own));
    const announced = socket.events.filter((e) => e.kind === 'chatroom_deleted').map((e) => e.chatroom_uuid);
    expect(announced).toEqual([own]);
    socket.close();

    expect(await roomExists(old.room)).toBe(0);
    expect(await roomExists(uncovered.room)).toBe(0);
    expect(await roomExists(recent.room)).toBe(1);
    expect(await roomExists(otherApp.room)).toBe(1);
    const roomIds = `SELECT id FROM chatrooms`;
    expect(await exists('messages', `chatroom_id NOT IN (${roomIds})`, [])).toBe(0);
    expect(await exists('notifications', `chatroom_id NOT IN (${roomIds})`, [])).toBe(0);
    expect(await exists('unanswered_question_asks', 'true', [])).toBe(0);
    // The group held the deleted visitor's question: it goes too, and the inbox is empty.
    expect(await exists('unanswered_questions', 'application_id = $1', [appId])).toBe(0);
    const inbox = await t.call('GET', `/api/applications/${trimmed.uuid}/attention/`, { token: owner.token });
    expect(inbox.body.unanswered).toEqual([]);
    // The stored Responses API bodies hold the text: those of deleted conversations are gone.
    const read = (id: string, apiKey: string) =>
      t.call('GET', `/api/v1/responses/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect((await read(old.response, trimmedKey)).status).toBe(404);
    expect((await read(uncovered.response, trimmedKey)).status).toBe(404);
    expect((await read(recent.response, trimmedKey)).status).toBe(200);
    expect((await read(otherApp.response, keptKey)).status).toBe(200);
    // What the analytics counted stays.
    expect(await exists('analytics_days', "application_id = $1 AND day = '2020-01-01'", [appId])).toBe(1);
  });

  it('runs as a daily job on the notifications clock', async () => {
    const apiKey = await key(trimmed.uuid);
    const recent = await ask(apiKey, trimmed.uuid, 'How long is the X200 warranty?');
    await age(recent.room, 10);
    await deleteExpiredConversations(t.app, new Date());
    expect(await roomExists(recent.room)).toBe(1);
    const realClock = t.app.notifications.clock;
    t.app.notifications.clock = () => new Date(Date.now() + 81 * DAY);
    try {
      await t.app.jobs.send(RETENTION_QUEUE, {});
      await waitFor(async () => (await roomExists(recent.room)) === 0);
    } finally {
      t.app.notifications.clock = realClock;
    }
    const schedules = await t.app.jobs.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(RETENTION_QUEUE);
  });
});
