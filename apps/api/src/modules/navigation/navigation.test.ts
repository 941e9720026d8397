import { SIDEBAR_CHATROOMS } from '@cairn/contracts/navigation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function application(token: string, name: string): Promise<string> {
  const res = await t.call('POST', '/api/applications/', { token, json: { name } });
  expect(res.status).toBe(201);
  return res.body.uuid;
}

describe('GET /api/navigation/', () => {
  it('answers what the separate endpoints answer, for the first application or the one asked for', async () => {
    const { token, user } = await t.signUp();
    const first = await application(token, 'First');
    const second = await application(token, 'Second');
    const sent = await t.call('POST', `/api/applications/${second}/chatrooms/send-message/`, {
      token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'Hello there',
        sender_identifier: `reg_${user.id}`,
        metadata: { source: 'web' },
        send_to_user: true,
      },
    });
    expect(sent.status).toBe(201);
    const get = async (path: string) => (await t.call('GET', path, { token })).body;

    const byDefault = await t.call('GET', '/api/navigation/', { token });
    expect(byDefault.status).toBe(200);
    expect(byDefault.body).toEqual({
      user: await get('/api/me/'),
      applications: await get('/api/applications/'),
      selected: first,
      chatrooms: [],
      more_chatrooms: false,
      attention: { waiting: 0, unanswered: 0, negative_feedback: 0 },
    });

    const asked = await t.call('GET', `/api/navigation/?application=${second}`, { token });
    expect(asked.body).toMatchObject({
      selected: second,
      chatrooms: (await get(`/api/applications/${second}/chatrooms/`)).chatrooms,
      attention: await get(`/api/applications/${second}/attention/count/`),
    });
    expect(asked.body.chatrooms).toHaveLength(1);
    expect(asked.body.more_chatrooms).toBe(false);
  });

  it(`lists the latest ${SIDEBAR_CHATROOMS} sidebar chatrooms and says there are more`, async () => {
    const { token } = await t.signUp();
    const uuid = await application(token, 'Busy');
    // A thousand chats' worth of sidebar in one statement: web chats a minute apart, and one widget
    // chat a person waits in, older than all of them but one.
    await t.database.query(
      `INSERT INTO chatrooms (uuid, application_id, name, source, last_message_at)
       SELECT gen_random_uuid(), a.id, 'Chat ' || n, 'web', now() - make_interval(mins => n)
       FROM applications a, generate_series(1, $2::int) n WHERE a.uuid = $1`,
      [uuid, SIDEBAR_CHATROOMS + 1],
    );
    await t.database.query(
      `INSERT INTO chatrooms (uuid, application_id, name, source, waiting_since, last_message_at)
       SELECT gen_random_uuid(), a.id, 'Waiting visitor', 'widget', now(), now() - make_interval(mins => $2::int)
       FROM applications a WHERE a.uuid = $1`,
      [uuid, SIDEBAR_CHATROOMS],
    );
    const all = (await t.call('GET', `/api/applications/${uuid}/chatrooms/`, { token })).body.chatrooms;
    expect(all).toHaveLength(SIDEBAR_CHATROOMS + 2);

    const res = await t.call('GET', `/api/navigation/?application=${uuid}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.chatrooms).toEqual(all.slice(0, SIDEBAR_CHATROOMS));
    expect(res.body.chatrooms.at(-1).name).toBe('Waiting visitor');
    expect(res.body.more_chatrooms).toBe(true);

    // Exactly as many as shown: no more.
    await t.call('DELETE', `/api/applications/${uuid}/chatrooms/${all.at(-1).uuid}/`, { token });
    await t.call('DELETE', `/api/applications/${uuid}/chatrooms/${all.at(-2).uuid}/`, { token });
    const exact = await t.call('GET', `/api/navigation/?application=${uuid}`, { token });
    expect(exact.body.chatrooms).toHaveLength(SIDEBAR_CHATROOMS);
    expect(exact.body.more_chatrooms).toBe(false);
  });

  it('selects nothing for a user without applications', async () => {
    const { token } = await t.signUp();
    const res = await t.call('GET', '/api/navigation/', { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      applications: [],
      selected: null,
      chatrooms: [],
      more_chatrooms: false,
      attention: null,
    });
  });

  it("answers 404 for another user's application, 400 for a malformed id, 401 without a token", async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    const hers = await application(alice.token, 'Hers');
    const foreign = await t.call('GET', `/api/navigation/?application=${hers}`, { token: bob.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'not_found', detail: 'Application not found.' });
    for (const bad of ['not-a-uuid', 'a%00b', 'x'.repeat(5000)]) {
      const malformed = await t.call('GET', `/api/navigation/?application=${bad}`, { token: bob.token });
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors.application).toEqual(['Not a valid id']);
    }
    expect((await t.call('GET', '/api/navigation/')).status).toBe(401);
  });
});
