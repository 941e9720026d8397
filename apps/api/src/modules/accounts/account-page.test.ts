import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';
import { describeDevice } from './device.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0';

/** Another sign-in of the same account, from another device. */
async function signInAgain(email: string, userAgent = FIREFOX_ANDROID, password = TEST_PASSWORD) {
  const res = await t.call('POST', '/api/login/', {
    json: { email, password },
    headers: { 'user-agent': userAgent },
  });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

const sessionsOf = async (token: string) => (await t.call('GET', '/api/me/sessions/', { token })).body;

describe('display name', () => {
  it('defaults to the first name, is set and cleared through PATCH /api/me/, and is refused when hostile', async () => {
    const { token } = await t.signUp();
    const named = await t.call('PATCH', '/api/me/', {
      token,
      json: { first_name: 'Ada', last_name: 'Lovelace' },
    });
    expect(named.body).toMatchObject({ display_name: '', public_name: 'Ada', name: 'Ada Lovelace' });
    const set = await t.call('PATCH', '/api/me/', { token, json: { display_name: '  Ada from Support ' } });
    expect(set.body).toMatchObject({ display_name: 'Ada from Support', public_name: 'Ada from Support' });
    expect((await t.call('GET', '/api/me/', { token })).body.display_name).toBe('Ada from Support');
    for (const display_name of ['x'.repeat(151), 'Ada\u0000', 42]) {
      const bad = await t.call('PATCH', '/api/me/', { token, json: { display_name } });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors)).toEqual(['display_name']);
    }
    const cleared = await t.call('PATCH', '/api/me/', { token, json: { display_name: '' } });
    expect(cleared.body).toMatchObject({ display_name: '', public_name: 'Ada' });
  });

  it('is the sender name of a reply to a visitor', async () => {
    const { token, user } = await t.signUp();
    await t.call('PATCH', '/api/me/', { token, json: { first_name: 'Grace', display_name: 'Grace H.' } });
    const app = await t.call('POST', '/api/applications/', { token, json: { name: 'Shop' } });
    const sent = await t.call('POST', `/api/applications/${app.body.uuid}/chatrooms/send-message/`, {
      token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'Hello from a person',
        sender_identifier: `reg_${user.id}`,
        metadata: { source: 'web' },
        send_to_user: true,
      },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.message.metadata.sender_name).toBe('Grace H.');
  });
});

describe('sessions', () => {
  it('lists sessions with device, address and times, marking the current one', async () => {
    const { token, user } = await t.signUp();
    await signInAgain(user.email, CHROME_MAC);
    const list = await sessionsOf(token);
    expect(list).toHaveLength(2);
    const current = list.find((s: { current: boolean }) => s.current);
    const other = list.find((s: { current: boolean }) => !s.current);
    expect(other).toEqual({
      id: expect.any(Number),
      device: 'Chrome on macOS',
      address: '127.0.0.1',
      created_at: expect.any(String),
      last_used_at: expect.any(String),
      expires_at: expect.any(String),
      current: false,
    });
    // 30 days after its last use (a fresh session is far from its one-year maximum).
    expect(Date.parse(other.expires_at) - Date.parse(other.last_used_at)).toBe(30 * 86_400_000);
    expect(current.device).toBe('node'); // fetch's user agent
  });

  it("signs one session out; another user's session is a 404; ending the current one signs out", async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    const aliceOther = await signInAgain(alice.user.email);
    const bobSession = (await sessionsOf(bob.token))[0];
    const forged = await t.call('DELETE', `/api/me/sessions/${bobSession.id}/`, { token: alice.token });
    expect(forged.status).toBe(404);
    expect(forged.body.code).toBe('not_found');
    expect((await t.call('GET', '/api/me/', { token: bob.token })).status).toBe(200);
    for (const bad of ['0', '-1', 'abc', '99999999999', '1.5']) {
      expect((await t.call('DELETE', `/api/me/sessions/${bad}/`, { token: alice.token })).status).toBeOneOf([
        400, 404,
      ]);
    }

    const other = (await sessionsOf(alice.token)).find((s: { current: boolean }) => !s.current);
    expect((await t.call('DELETE', `/api/me/sessions/${other.id}/`, { token: alice.token })).status).toBe(
      204,
    );
    expect((await t.call('GET', '/api/me/', { token: aliceOther })).status).toBe(401);
    const mine = (await sessionsOf(alice.token))[0];
    expect((await t.call('DELETE', `/api/me/sessions/${mine.id}/`, { token: alice.token })).status).toBe(204);
    expect((await t.call('GET', '/api/me/', { token: alice.token })).status).toBe(401);
  });

  it('signs out everywhere else', async () => {
    const { token, user } = await t.signUp();
    const others = [await signInAgain(user.email), await signInAgain(user.email, CHROME_MAC)];
    const res = await t.call('DELETE', '/api/me/sessions/', { token });
    expect(res.body).toEqual({ ended: 2 });
    for (const other of others) expect((await t.call('GET', '/api/me/', { token: other })).status).toBe(401);
    expect((await t.call('GET', '/api/me/', { token })).status).toBe(200);
  });

  it('refuses and removes a session unused for longer than the idle limit or older than the maximum', async () => {
    const { token, user } = await t.signUp();
    const old = await signInAgain(user.email);
    const setAge = (column: string, days: number, id: number) =>
      t.database.query(`UPDATE auth_tokens SET ${column} = now() - make_interval(days => $1) WHERE id = $2`, [
        days,
        id,
      ]);
    const [first, second] = await sessionsOf(token);
    const idOf = async (tok: string) =>
      (await sessionsOf(tok)).find((s: { current: boolean }) => s.current).id as number;
    const oldId = await idOf(old);
    expect([first.id, second.id]).toContain(oldId);

    // 29 days unused: still fine (and its use is recorded).
    await setAge('last_used_at', 29, oldId);
    expect((await t.call('GET', '/api/me/', { token: old })).status).toBe(200);
    // The use is written off the request's path: waited for, so it cannot land after the next change.
    await expect
      .poll(async () => {
        const { rows } = await t.database.query<{ recent: boolean }>(
          `SELECT last_used_at > now() - interval '1 hour' AS recent FROM auth_tokens WHERE id = $1`,
          [oldId],
        );
        return rows[0]?.recent;
      })
      .toBe(true);
    // 31 days unused: refused and gone.
    await setAge('last_used_at', 31, oldId);
    const refused = await t.call('GET', '/api/me/', { token: old });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthorized');
    const { rows } = await t.database.query('SELECT id FROM auth_tokens WHERE id = $1', [oldId]);
    expect(rows).toHaveLength(0);

    // Used every day but signed in more than a year ago: refused too.
    const ancient = await signInAgain(user.email);
    const ancientId = await idOf(ancient);
    await setAge('created_at', 366, ancientId);
    expect((await t.call('GET', '/api/me/', { token: ancient })).status).toBe(401);
    // An ended session never shows in the list.
    const still = await signInAgain(user.email);
    await setAge('last_used_at', 40, await idOf(still));
    expect((await sessionsOf(token)).map((s: { current: boolean }) => s.current)).toEqual([true]);
  });

  it('follows the configured lifetimes', async () => {
    const short = await startTestApp({ sessionLifetime: { idleMs: 3_600_000, maxMs: 7_200_000 } });
    try {
      const { token } = await short.signUp();
      await short.database.query(`UPDATE auth_tokens SET last_used_at = now() - interval '61 minutes'`);
      expect((await short.call('GET', '/api/me/', { token })).status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('records the use of a session unused for over a minute, with the address', async () => {
    const { token } = await t.signUp();
    await t.database.query(
      `UPDATE auth_tokens SET last_used_at = now() - interval '10 minutes', ip_address = '' WHERE token_hash = $1`,
      [createHash('sha256').update(token).digest('hex')],
    );
    await t.call('GET', '/api/me/', { token });
    // The write is off the request's path: wait for it.
    let session = (await sessionsOf(token))[0];
    for (let i = 0; i < 50 && session.address === ''; i++) {
      await new Promise((r) => setTimeout(r, 20));
      session = (await sessionsOf(token))[0];
    }
    expect(session.address).toBe('127.0.0.1');
    expect(Date.now() - Date.parse(session.last_used_at)).toBeLessThan(60_000);
  });
});

describe('POST /api/me/password/', () => {
  it('changes the password, ends every other session and every outstanding link, keeps this one', async () => {
    const { token, user } = await t.signUp();
    const other = await signInAgain(user.email);
    await t.call('POST', '/api/forgot-password/', { json: { email: user.email } });
    const resetLink = (await t.lastMail(user.email, 'Reset your password')).links.find((l) =>
      l.includes('/reset-password?token='),
    )!;
    const res = await t.call('POST', '/api/me/password/', {
      token,
      json: { current_password: TEST_PASSWORD, new_password: 'a-new-granite-lantern' },
    });
    expect(res.status).toBe(200);
    expect((await t.call('GET', '/api/me/', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/me/', { token: other })).status).toBe(401);
    await t.lastMail(user.email, 'Your password was changed');
    const reset = await t.call('POST', '/api/reset-password/', {
      json: { token: new URL(resetLink).searchParams.get('token'), password: 'yet-another-lantern' },
    });
    expect(reset.status).toBe(400);
    const login = (password: string) =>
      t.call('POST', '/api/login/', { json: { email: user.email, password } });
    expect((await login(TEST_PASSWORD)).status).toBe(400);
    expect((await login('a-new-granite-lantern')).status).toBe(200);
  });

  it.each([
    [
      { current_password: 'not-my-password', new_password: 'a-new-granite-lantern' },
      'current_password',
      'That is not your current password',
    ],
    [{ current_password: '', new_password: 'a-new-granite-lantern' }, 'current_password', 'Required'],
    [{ new_password: 'a-new-granite-lantern' }, 'current_password', 'Required'],
    [{ current_password: TEST_PASSWORD, new_password: 'short' }, 'new_password', 'At least 8 characters'],
    [
      { current_password: TEST_PASSWORD, new_password: 'password123' },
      'new_password',
      'This password is too common; choose a less guessable one',
    ],
    [
      { current_password: TEST_PASSWORD, new_password: 'x'.repeat(129) },
      'new_password',
      'At most 128 characters',
    ],
  ])('refuses %j on %s, and nothing changes', async (json, field, message) => {
    const { token, user } = await t.signUp();
    const other = await signInAgain(user.email);
    const res = await t.call('POST', '/api/me/password/', { token, json });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toEqual([message]);
    expect((await t.call('GET', '/api/me/', { token: other })).status).toBe(200);
  });

  it('limits wrong current passwords per account', async () => {
    const { token } = await t.signUp();
    const tries = [];
    for (let i = 0; i < 11; i++)
      tries.push(
        (
          await t.call('POST', '/api/me/password/', {
            token,
            json: { current_password: `guess-${i}`, new_password: 'a-new-granite-lantern' },
          })
        ).status,
      );
    expect(tries.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(tries[10]).toBe(429);
  });
});

describe('e-mail change', () => {
  const changeEmail = (token: string, email: string, password = TEST_PASSWORD) =>
    t.call('POST', '/api/me/email/', { token, json: { email, password } });

  it('takes effect only when the new address confirms; the old address is told', async () => {
    const { token, user } = await t.signUp();
    const newEmail = `moved-${user.id}@example.com`;
    const res = await changeEmail(token, ` ${newEmail.toUpperCase()} `);
    expect(res.status).toBe(202);
    expect(res.body.pending_email).toBe(newEmail);
    expect((await t.call('GET', '/api/me/email/', { token })).body).toEqual({
      email: user.email,
      pending_email: newEmail,
    });
    expect((await t.call('GET', '/api/me/', { token })).body.email).toBe(user.email);
    await t.lastMail(user.email, 'A change of your e-mail address was requested');
    const confirm = await t.lastMail(newEmail);
    expect(confirm.subject).toBe('Confirm your new e-mail address');
    const link = confirm.links.find((l) => l.startsWith(`${t.config.publicUrl}/verify-email?token=`))!;
    const verified = await t.call('POST', '/api/verify-email/', {
      json: { token: new URL(link).searchParams.get('token') },
    });
    expect(verified.body.detail).toBe('Your new e-mail address is confirmed. Sign in with it from now on.');
    const me = (await t.call('GET', '/api/me/', { token })).body;
    expect(me).toMatchObject({ email: newEmail, username: newEmail });
    expect((await t.call('GET', '/api/me/email/', { token })).body.pending_email).toBeNull();
    await t.lastMail(user.email, 'Your e-mail address was changed');
    const login = (email: string) =>
      t.call('POST', '/api/login/', { json: { email, password: TEST_PASSWORD } });
    expect((await login(newEmail)).status).toBe(200);
    expect((await login(user.email)).status).toBe(400);
    // The link works once.
    expect(
      (
        await t.call('POST', '/api/verify-email/', {
          json: { token: new URL(link).searchParams.get('token') },
        })
      ).status,
    ).toBe(400);
  });

  it('answers the same for an address that already has an account, which is told instead', async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    const free = await changeEmail(alice.token, `free-${alice.user.id}@example.com`);
    const taken = await changeEmail(alice.token, bob.user.email);
    expect(taken.status).toBe(free.status);
    expect(taken.body.detail.replace(bob.user.email, 'X')).toBe(
      free.body.detail.replace(`free-${alice.user.id}@example.com`, 'X'),
    );
    const bobMail = await t.lastMail(bob.user.email, 'This address already has a Cairn account');
    expect(bobMail.links.some((l) => l.includes('token='))).toBe(false);
    // Only the latest request counts: the earlier link is void.
    const earlier = (await t.lastMail(`free-${alice.user.id}@example.com`)).links.find((l) =>
      l.includes('token='),
    )!;
    const used = await t.call('POST', '/api/verify-email/', {
      json: { token: new URL(earlier).searchParams.get('token') },
    });
    expect(used.status).toBe(400);
    expect((await t.call('GET', '/api/me/', { token: alice.token })).body.email).toBe(alice.user.email);
  });

  it('refuses a wrong password, the current address and a bad address; a password change voids the link', async () => {
    const { token, user } = await t.signUp();
    const wrong = await changeEmail(token, 'elsewhere@example.com', 'not-my-password');
    expect(wrong.body.errors).toEqual({ password: ['That is not your current password'] });
    expect((await changeEmail(token, user.email)).body.errors).toEqual({
      email: ['This is already your address'],
    });
    expect((await changeEmail(token, 'not-an-address')).body.errors).toEqual({
      email: ['Invalid email address'],
    });
    expect((await changeEmail(token, 'a\u0000@example.com')).status).toBe(400);

    const target = `later-${user.id}@example.com`;
    expect((await changeEmail(token, target)).status).toBe(202);
    const link = (await t.lastMail(target)).links.find((l) => l.includes('token='))!;
    await t.call('POST', '/api/me/password/', {
      token,
      json: { current_password: TEST_PASSWORD, new_password: 'a-new-granite-lantern' },
    });
    const used = await t.call('POST', '/api/verify-email/', {
      json: { token: new URL(link).searchParams.get('token') },
    });
    expect(used.status).toBe(400);
    expect((await t.call('GET', '/api/me/', { token })).body.email).toBe(user.email);
  });
});

describe('DELETE /api/me/', () => {
  it('deletes the account and everything it owns; the address can register again', async () => {
    const owner = await t.signUp();
    const stranger = await t.signUp();
    const token = owner.token;
    const form = new FormData();
    form.set('name', 'Doomed');
    form.set('items[0].type', 'file');
    form.set('items[0].file', new Blob([`Only this account has this file ${owner.user.id}.`]), 'mine.txt');
    form.set('items[1].type', 'file');
    form.set('items[1].file', new Blob(['Both accounts uploaded these very bytes.']), 'shared.txt');
    const created = await t.call('POST', '/api/applications/', { token, form });
    expect(created.status).toBe(201);
    const appId = created.body.uuid;
    const shared = new FormData();
    shared.set('name', 'Survivor');
    shared.set('items[0].type', 'file');
    shared.set('items[0].file', new Blob(['Both accounts uploaded these very bytes.']), 'shared.txt');
    expect((await t.call('POST', '/api/applications/', { token: stranger.token, form: shared })).status).toBe(
      201,
    );
    await t.call('POST', `/api/applications/${appId}/chatrooms/send-message/`, {
      token,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'hello',
        sender_identifier: `reg_${owner.user.id}`,
        metadata: { source: 'web' },
        send_to_user: false,
      },
    });
    await t.call('POST', `/api/applications/${appId}/api-keys/`, { token, json: { name: 'k' } });
    await t.call('POST', '/api/webhooks/', {
      token,
      json: { url: 'https://example.com/hook', events: ['message.created'] },
    });
    await t.call('POST', '/api/model-providers/', {
      token,
      json: { kind: 'openai_compatible', name: 'Nowhere', base_url: 'http://127.0.0.1:9/v1' },
    });
    const { rows: filesBefore } = await t.database.query<{ file_path: string }>(
      `SELECT k.file_path FROM knowledge_items k JOIN applications a ON a.id = k.application_id WHERE a.owner_id = $1`,
      [owner.user.id],
    );
    expect(filesBefore).toHaveLength(2);
    const onDisk = (p: string) => fs.existsSync(path.join(t.config.dataDir, 'files', p));
    expect(filesBefore.every((f) => onDisk(f.file_path))).toBe(true);

    const wrong = await t.call('DELETE', '/api/me/', { token, json: { password: 'not-my-password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ password: ['That is not your current password'] });
    expect((await t.call('DELETE', '/api/me/', { token, json: {} })).status).toBe(400);
    expect((await t.call('GET', '/api/me/', { token })).status).toBe(200);

    const gone = await t.call('DELETE', '/api/me/', { token, json: { password: TEST_PASSWORD } });
    await productEventsSettled(t.app);
    expect(gone.status).toBe(204);
    expect((await t.call('GET', '/api/me/', { token })).status).toBe(401);
    for (const table of ['applications', 'model_providers', 'webhooks']) {
      const { rows } = await t.database.query(`SELECT 1 FROM ${table} WHERE owner_id = $1`, [owner.user.id]);
      expect(rows, table).toHaveLength(0);
    }
    for (const table of ['auth_tokens', 'email_tokens']) {
      const { rows } = await t.database.query(`SELECT 1 FROM ${table} WHERE user_id = $1`, [owner.user.id]);
      expect(rows, table).toHaveLength(0);
    }
    const orphans = await t.database.query(
      `SELECT (SELECT count(*) FROM chatrooms c WHERE NOT EXISTS (SELECT 1 FROM applications a WHERE a.id = c.application_id))::int AS rooms,
              (SELECT count(*) FROM api_keys k WHERE NOT EXISTS (SELECT 1 FROM applications a WHERE a.id = k.application_id))::int AS keys`,
    );
    expect(orphans.rows[0]).toEqual({ rooms: 0, keys: 0 });
    // The file only this account had is gone; the one another account also uploaded stays.
    const { rows: strangers } = await t.database.query<{ file_path: string }>(
      `SELECT k.file_path FROM knowledge_items k JOIN applications a ON a.id = k.application_id WHERE a.owner_id = $1`,
      [stranger.user.id],
    );
    const sharedPath = strangers[0]!.file_path;
    expect(filesBefore.map((f) => f.file_path)).toContain(sharedPath);
    for (const f of filesBefore) expect(onDisk(f.file_path)).toBe(f.file_path === sharedPath);
    expect((await t.call('GET', '/api/applications/', { token: stranger.token })).body).toHaveLength(1);
    await t.lastMail(owner.user.email, 'Your Cairn account was deleted');

    const again = await t.signUp(owner.user.email);
    expect(again.user.id).not.toBe(owner.user.id);
  });
});

describe('describeDevice', () => {
  it.each([
    [CHROME_MAC, 'Chrome on macOS'],
    [FIREFOX_ANDROID, 'Firefox on Android'],
    ['curl/8.5.0', 'curl'],
    ['', 'Unknown device'],
    [undefined, 'Unknown device'],
  ])('%s → %s', (ua, device) => {
    expect(describeDevice(ua)).toBe(device);
  });
});
