import { ASSISTANT_SENDER, MESSAGE_MAX } from '@cairn/contracts/chat';
import { applications, chatrooms, messages, productOutbox } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChatSocket } from '../../testing/chat-socket.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';
import { NOT_COVERED_ANSWER } from './answer/no-answer.ts';
import { postMessage } from './post-message.ts';

let t: TestApp;
let alice: { token: string; user: { id: number } };
let bob: { token: string; user: { id: number } };
let appId: string;
let bobAppId: string;

const createApp = async (token: string, name: string) =>
  (await t.call('POST', '/api/applications/', { token, json: { name } })).body.uuid as string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
  appId = await createApp(alice.token, 'Alice bot');
  bobAppId = await createApp(bob.token, 'Bob bot');
});
afterAll(() => t.close());

const send = (token: string, app: string, body: Record<string, unknown>) =>
  t.call('POST', `/api/applications/${app}/chatrooms/send-message/`, { token, json: body });
const asAlice = (chatroom: string, message: string, extra: Record<string, unknown> = {}) =>
  send(alice.token, appId, {
    chatroom_identifier: chatroom,
    message,
    sender_identifier: `reg_${alice.user.id}`,
    metadata: { source: 'web' },
    send_to_user: false,
    ...extra,
  });
const messagesOf = (chatroom: string, token = alice.token, app = appId) =>
  t.call('GET', `/api/applications/${app}/chatrooms/${chatroom}/messages/`, { token });

describe('send-message', () => {
  it('new_chat creates a chatroom named from the first message and starts an answer', async () => {
    const text =
      'How do I reset the password of the staff account when the recovery e-mail no longer exists?';
    const res = await asAlice('new_chat', text);
    expect(res.status).toBe(201);
    expect(res.body.chatroom.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.chatroom.name.length).toBeLessThanOrEqual(60);
    expect(res.body.chatroom.name).toBe('How do I reset the password of the staff account when the…');
    expect(res.body.message).toMatchObject({
      sender_identifier: `reg_${alice.user.id}`,
      message: text,
      metadata: { source: 'web' },
      status: 'complete',
    });
    expect(res.body.answer).toMatchObject({
      sender_identifier: ASSISTANT_SENDER,
      status: 'streaming',
      message: '',
    });

    const list = await t.call('GET', `/api/applications/${appId}/chatrooms/`, { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.chatrooms[0]).toEqual({
      uuid: res.body.chatroom.uuid,
      name: res.body.chatroom.name,
      source: 'web',
      handled_by: 'assistant',
      waiting_since: null,
      started_on: null,
      created_at: expect.any(String),
      last_message_at: expect.any(String),
    });
  });

  it('answers that the knowledge does not cover a question when the application has none', async () => {
    const tab = await openChatSocket(t.url, alice.token);
    const res = await asAlice('new_chat', 'What is the warranty period of the X200?');
    const answer = await tab.finalOf(res.body.answer.uuid);
    expect(answer.status).toBe('complete');
    expect(answer.message).toBe(NOT_COVERED_ANSWER);
    expect(answer.metadata).toMatchObject({
      sources: [],
      model: { provider: 'builtin' },
      latency_ms: expect.any(Number),
      reply_to: res.body.message.uuid,
    });
    expect(tab.streamedText(answer.uuid)).toBe(answer.message);
    const history = await messagesOf(res.body.chatroom.uuid);
    expect(history.body).toMatchObject({
      uuid: res.body.chatroom.uuid,
      name: res.body.chatroom.name,
      source: 'web',
      handled_by: 'assistant',
      waiting_since: null,
      started_on: null,
    });
    expect(history.body.messages.map((m: { uuid: string; status: string }) => [m.uuid, m.status])).toEqual([
      [res.body.message.uuid, 'complete'],
      [answer.uuid, 'complete'],
    ]);
    expect(history.body.messages[1].message).toBe(NOT_COVERED_ANSWER);
    tab.close();
  });

  it('publishes the new chatroom, the message and the answer to every socket of the owner only', async () => {
    const tab1 = await openChatSocket(t.url, alice.token);
    const tab2 = await openChatSocket(t.url, alice.token);
    const other = await openChatSocket(t.url, bob.token);
    const res = await asAlice('new_chat', 'Hello there');
    for (const tab of [tab1, tab2]) {
      const answer = await tab.finalOf(res.body.answer.uuid);
      const kinds = tab.events.filter((e) => e.chatroom_uuid === res.body.chatroom.uuid).map((e) => e.kind);
      expect(kinds.slice(0, 3)).toEqual(['chatroom', 'created', 'created']);
      expect(kinds).toContain('delta');
      expect(kinds.at(-1)).toBe('updated');
      expect(tab.streamedText(answer.uuid)).toBe(answer.message);
    }
    expect(other.events).toEqual([]);
    for (const tab of [tab1, tab2, other]) tab.close();
  });

  it('send_to_user stores the owner’s message for the end user and the assistant stays silent', async () => {
    const tab = await openChatSocket(t.url, alice.token);
    const first = await asAlice('new_chat', 'A question first');
    const room = first.body.chatroom.uuid;
    await tab.finalOf(first.body.answer.uuid);
    const res = await asAlice(room, 'Hi, a person will follow up by e-mail.', { send_to_user: true });
    expect(res.status).toBe(201);
    expect(res.body.answer).toBeNull();
    expect(res.body.message.metadata).toEqual({ source: 'web', send_to_user: true, sender_name: 'Support' });
    // A later ordinary message is answered; by then a job for the silent one would have run too.
    const later = await asAlice(room, 'And another question');
    await tab.finalOf(later.body.answer.uuid);
    const history = await messagesOf(room);
    expect(history.body.messages.map((m: { sender_identifier: string }) => m.sender_identifier)).toEqual([
      `reg_${alice.user.id}`,
      ASSISTANT_SENDER,
      `reg_${alice.user.id}`,
      `reg_${alice.user.id}`,
      ASSISTANT_SENDER,
    ]);
    tab.close();
  });

  it('refuses a sender identifier that is not the caller’s own', async () => {
    const res = await asAlice('new_chat', 'hello', { sender_identifier: `reg_${bob.user.id}` });
    expect(res.status).toBe(400);
    expect(res.body.errors.sender_identifier).toEqual(['Must be your own sender identifier.']);
    const none = await asAlice('new_chat', 'hello', { sender_identifier: undefined });
    expect(none.status).toBe(400);
    expect(none.body.errors.sender_identifier).toBeDefined();
  });

  it('caps the message length with a clear error and refuses empty messages', async () => {
    const atCap = await asAlice('new_chat', 'a'.repeat(MESSAGE_MAX));
    expect(atCap.status).toBe(201);
    const long = await asAlice('new_chat', 'a'.repeat(MESSAGE_MAX + 1));
    expect(long.status).toBe(400);
    expect(long.body.errors.message).toEqual(['A message can have at most 8,000 characters.']);
    const blank = await asAlice('new_chat', '   ');
    expect(blank.status).toBe(400);
    expect(blank.body.errors.message).toEqual(['Required']);
    // Control characters are dropped from free text (decision 042); a message of nothing else is empty.
    const nul = await asAlice('new_chat', 'Opening\u0000 hours?\u0007');
    expect(nul.status).toBe(201);
    expect(nul.body.message.message).toBe('Opening hours?');
    expect((await asAlice('new_chat', '\u0000\u0001')).status).toBe(400);
  });

  it('refuses malformed chatroom identifiers and others’ chatrooms and applications', async () => {
    const bad = await asAlice('not-a-room', 'hello');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.chatroom_identifier).toBeDefined();
    const unknown = await asAlice('00000000-0000-4000-8000-000000000000', 'hello');
    expect(unknown.status).toBe(404);

    const bobs = await send(bob.token, bobAppId, {
      chatroom_identifier: 'new_chat',
      message: 'Bob’s secret',
      sender_identifier: `reg_${bob.user.id}`,
    });
    expect(bobs.status).toBe(201);
    // Alice cannot post into Bob’s chatroom, through her app or his.
    expect((await asAlice(bobs.body.chatroom.uuid, 'intrude')).status).toBe(404);
    const viaBobApp = await send(alice.token, bobAppId, {
      chatroom_identifier: bobs.body.chatroom.uuid,
      message: 'intrude',
      sender_identifier: `reg_${alice.user.id}`,
    });
    expect(viaBobApp.status).toBe(404);
    expect((await messagesOf(bobs.body.chatroom.uuid)).status).toBe(404);
    expect((await messagesOf(bobs.body.chatroom.uuid, alice.token, bobAppId)).status).toBe(404);
    expect(
      (await t.call('GET', `/api/applications/${bobAppId}/chatrooms/`, { token: alice.token })).status,
    ).toBe(404);
    expect((await t.call('GET', `/api/applications/${appId}/chatrooms/`)).status).toBe(401);
  });

  it('text with half of a surrogate pair is stored with U+FFFD; metadata holding one is a 400 that stores nothing', async () => {
    const text = await asAlice('new_chat', 'Opening \ud800hours?');
    expect(text.status).toBe(201);
    expect(text.body.message.message).toBe('Opening \ufffdhours?');

    const room = text.body.chatroom.uuid;
    const before = (await messagesOf(room)).body.messages.length;
    for (const metadata of [{ note: 'a\ud800b' }, { 'k\udc00': 1 }]) {
      const res = await asAlice(room, 'Still there?', { metadata });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        detail:
          'The request holds text that is not valid Unicode (half of a surrogate pair, such as \\ud800), which cannot be stored. Remove it and try again.',
        code: 'invalid',
      });
    }
    expect((await messagesOf(room)).body.messages).toHaveLength(before);
    // A whole pair is text like any other.
    expect((await asAlice(room, 'Still there?', { metadata: { note: '\ud83d\ude00' } })).status).toBe(201);
  });

  it('a chatroom deleted after it was found takes no message: a 404, nothing written', async () => {
    const first = await asAlice('new_chat', 'about to be deleted');
    const [application] = await t.app.db.select().from(applications).where(eq(applications.uuid, appId));
    const [chatroom] = await t.app.db
      .select()
      .from(chatrooms)
      .where(eq(chatrooms.uuid, first.body.chatroom.uuid));
    const path = `/api/applications/${appId}/chatrooms/${first.body.chatroom.uuid}/`;
    expect((await t.call('DELETE', path, { token: alice.token })).status).toBe(204);
    const outboxBefore = await t.app.db.$count(productOutbox);

    // The row a request found before the delete (the send route's lookup), posted to afterwards.
    const late = postMessage(t.app, {
      application: application!,
      chatroom: chatroom!,
      source: 'web',
      senderIdentifier: `reg_${alice.user.id}`,
      message: 'too late',
      metadata: {},
      sendToUser: false,
    });
    await expect(late).rejects.toMatchObject({ code: 'not_found', statusCode: 404 });
    expect(await t.app.db.$count(messages, eq(messages.chatroomId, chatroom!.id))).toBe(0);
    expect(await t.app.db.$count(productOutbox)).toBeLessThanOrEqual(outboxBefore);
  });
});

describe('chatrooms', () => {
  it('lists chatrooms by latest activity', async () => {
    const appUuid = await createApp(alice.token, 'Ordering');
    const post = (room: string, message: string) =>
      send(alice.token, appUuid, {
        chatroom_identifier: room,
        message,
        sender_identifier: `reg_${alice.user.id}`,
      });
    const a = (await post('new_chat', 'first room')).body.chatroom.uuid;
    const b = (await post('new_chat', 'second room')).body.chatroom.uuid;
    const names = async () =>
      (
        await t.call('GET', `/api/applications/${appUuid}/chatrooms/`, { token: alice.token })
      ).body.chatrooms.map((c: { uuid: string }) => c.uuid);
    expect(await names()).toEqual([b, a]);
    await post(a, 'back to the first');
    expect(await names()).toEqual([a, b]);
  });

  it("lists only the owner's own chats and conversations a person is waiting in or answers", async () => {
    const appUuid = await createApp(alice.token, 'Quiet sidebar');
    const own = (
      await send(alice.token, appUuid, {
        chatroom_identifier: 'new_chat',
        message: 'my own chat',
        sender_identifier: `reg_${alice.user.id}`,
      })
    ).body.chatroom.uuid;
    const key = (
      await t.call('POST', `/api/applications/${appUuid}/api-keys/`, {
        token: alice.token,
        json: { name: 'K' },
      })
    ).body.key;
    const apiRooms: string[] = [];
    for (const input of ['first call', 'second call']) {
      const res = await t.call('POST', '/api/v1/responses', {
        headers: { authorization: `Bearer ${key}` },
        json: { model: appUuid, input },
      });
      expect(res.status).toBe(200);
      apiRooms.push(res.body.conversation_id);
    }
    const listed = async () =>
      (
        await t.call('GET', `/api/applications/${appUuid}/chatrooms/`, { token: alice.token })
      ).body.chatrooms.map((c: { uuid: string }) => c.uuid);
    expect(await listed()).toEqual([own]);
    const navigation = await t.call('GET', `/api/navigation/?application=${appUuid}`, { token: alice.token });
    expect(navigation.body.chatrooms.map((c: { uuid: string }) => c.uuid)).toEqual([own]);
    // The owner takes an API conversation over: a person answers it now, so it is in the sidebar.
    const path = `/api/applications/${appUuid}/chatrooms/${apiRooms[0]}/`;
    const taken = await t.call('PATCH', path, { token: alice.token, json: { handled_by: 'human' } });
    expect(taken.status).toBe(200);
    expect((await listed()).sort()).toEqual([own, apiRooms[0]].sort());
    await t.call('PATCH', path, { token: alice.token, json: { handled_by: 'assistant' } });
    expect(await listed()).toEqual([own]);
  });

  it('renames and deletes, for the owner only', async () => {
    const room = (await asAlice('new_chat', 'to be renamed')).body.chatroom.uuid;
    const path = `/api/applications/${appId}/chatrooms/${room}/`;
    const tab = await openChatSocket(t.url, alice.token);

    expect((await t.call('PATCH', path, { token: bob.token, json: { name: 'x' } })).status).toBe(404);
    const blank = await t.call('PATCH', path, { token: alice.token, json: { name: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.errors.name).toEqual(['Required']);
    const nul = await t.call('PATCH', path, { token: alice.token, json: { name: 'Re\u0000named' } });
    expect(nul.status).toBe(400);
    expect(nul.body.errors.name).toEqual(['Must not contain control characters']);
    const renamed = await t.call('PATCH', path, { token: alice.token, json: { name: '  Renamed  ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    expect((await messagesOf(room)).body.name).toBe('Renamed');

    expect((await t.call('DELETE', path, { token: bob.token })).status).toBe(404);
    expect((await t.call('DELETE', path, { token: alice.token })).status).toBe(204);
    expect((await messagesOf(room)).status).toBe(404);
    expect((await t.call('DELETE', path, { token: alice.token })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 100));
    const kinds = tab.events.filter((e) => e.chatroom_uuid === room).map((e) => e.kind);
    expect(kinds).toContain('chatroom');
    expect(kinds.at(-1)).toBe('chatroom_deleted');
    tab.close();
  });
});

describe('answers', () => {
  it('stores thumbs up/down on answers only, and regenerates an answer as a new run', async () => {
    const tab = await openChatSocket(t.url, alice.token);
    const res = await asAlice('new_chat', 'Rate me');
    const room = res.body.chatroom.uuid;
    const answer = await tab.finalOf(res.body.answer.uuid);
    const base = `/api/applications/${appId}/chatrooms/${room}/messages`;

    const up = await t.call('PUT', `${base}/${answer.uuid}/feedback/`, {
      token: alice.token,
      json: { feedback: 'up' },
    });
    expect(up.status).toBe(200);
    expect(up.body.feedback).toBe('up');
    expect((await messagesOf(room)).body.messages[1].feedback).toBe('up');
    const bad = await t.call('PUT', `${base}/${answer.uuid}/feedback/`, {
      token: alice.token,
      json: { feedback: 'meh' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.feedback).toBeDefined();
    const onUser = await t.call('PUT', `${base}/${res.body.message.uuid}/feedback/`, {
      token: alice.token,
      json: { feedback: 'down' },
    });
    expect(onUser.status).toBe(400);
    const bobs = await t.call('PUT', `${base}/${answer.uuid}/feedback/`, {
      token: bob.token,
      json: { feedback: 'down' },
    });
    expect(bobs.status).toBe(404);

    const again = await t.call('POST', `${base}/${answer.uuid}/regenerate/`, { token: alice.token });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      uuid: answer.uuid,
      run: 1,
      status: 'streaming',
      feedback: null,
      message: '',
    });
    await tab.finalOf(answer.uuid); // the first run's final event
    await waitFor(async () => (await messagesOf(room)).body.messages[1].status === 'complete');
    const regenerated = (await messagesOf(room)).body.messages[1];
    expect(regenerated).toMatchObject({ run: 1, status: 'complete', message: NOT_COVERED_ANSWER });
    expect(tab.streamedText(answer.uuid, 1)).toBe(NOT_COVERED_ANSWER);
    expect((await messagesOf(room)).body.messages).toHaveLength(2);
    tab.close();
  });
});
