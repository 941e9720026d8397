import { API_KEYS_MAX } from '@cairn/contracts/api-keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { isWellFormedApiKey, newApiKey } from './key-format.ts';

let t: TestApp;
let alice: { token: string };
let bob: { token: string };
let appId: string;
let bobAppId: string;

const createApp = async (token: string, name: string) =>
  (await t.call('POST', '/api/applications/', { token, json: { name } })).body.uuid as string;
const keysPath = (app: string) => `/api/applications/${app}/api-keys/`;
const createKey = (json: unknown, token = alice.token, app = appId) =>
  t.call('POST', keysPath(app), { token, json });

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.signUp();
  bob = await t.signUp();
  appId = await createApp(alice.token, 'Alice bot');
  bobAppId = await createApp(bob.token, 'Bob bot');
});
afterAll(() => t.close());

describe('key format', () => {
  it('has the cairn_ prefix, 190 random bits and a checksum that catches a typo', () => {
    const key = newApiKey();
    expect(key).toMatch(/^cairn_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(newApiKey()).not.toBe(key);
    const typo = `${key.slice(0, 10)}${key[10] === 'a' ? 'b' : 'a'}${key.slice(11)}`;
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`sk-${key.slice(6)}`)).toBe(false);
  });
});

describe('API keys of an application', () => {
  it('creates a key shown once, stores only its hash, and lists it without the secret', async () => {
    const empty = await t.call('GET', keysPath(appId), { token: alice.token });
    expect(empty).toMatchObject({ status: 200, body: [] });

    const res = await createKey({ name: 'Website backend' });
    expect(res.status).toBe(201);
    const key: string = res.body.key;
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(res.body).toMatchObject({
      name: 'Website backend',
      prefix: key.slice(0, 10),
      last_four: key.slice(-4),
      requests_per_minute: 60,
      expires_at: null,
      last_used_at: null,
    });

    const list = await t.call('GET', keysPath(appId), { token: alice.token });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toEqual({ ...res.body, key: undefined });
    expect(JSON.stringify(list.body)).not.toContain(key);

    const { rows } = await t.database.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
    expect(rows.map((r) => r.key_hash)).not.toContain(key);
    expect(JSON.stringify(rows)).not.toContain(key.slice(10, -4));
  });

  it('takes an expiry and a rate', async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const res = await createKey({ name: 'Nightly job', expires_at: expires, requests_per_minute: 10_000 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ expires_at: expires, requests_per_minute: 10_000 });
  });

  it.each([
    [{}, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'tab\u0000nul' }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'k', requests_per_minute: 0 }, 'requests_per_minute'],
    [{ name: 'k', requests_per_minute: 10_001 }, 'requests_per_minute'],
    [{ name: 'k', requests_per_minute: 1.5 }, 'requests_per_minute'],
    [{ name: 'k', requests_per_minute: '60' }, 'requests_per_minute'],
    [{ name: 'k', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    [{ name: 'k', expires_at: 'next tuesday' }, 'expires_at'],
    [{ name: 'k', expires_at: 1_900_000_000 }, 'expires_at'],
  ])('refuses %j with an error on %s and creates nothing', async (body, field) => {
    const before = (await t.call('GET', keysPath(appId), { token: alice.token })).body.length;
    const res = await createKey(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(Object.keys(res.body.errors)).toContain(field);
    expect((await t.call('GET', keysPath(appId), { token: alice.token })).body).toHaveLength(before);
  });

  it("keeps another user's application and keys out of reach (404)", async () => {
    const bobKey = (await createKey({ name: 'Bob key' }, bob.token, bobAppId)).body;
    expect((await t.call('GET', keysPath(bobAppId), { token: alice.token })).status).toBe(404);
    expect((await createKey({ name: 'sneaky' }, alice.token, bobAppId)).status).toBe(404);
    const del = await t.call('DELETE', `${keysPath(bobAppId)}${bobKey.uuid}/`, { token: alice.token });
    expect(del.status).toBe(404);
    // Alice's own application with Bob's key id: still not hers.
    expect((await t.call('DELETE', `${keysPath(appId)}${bobKey.uuid}/`, { token: alice.token })).status).toBe(
      404,
    );
    expect((await t.call('GET', keysPath(bobAppId), { token: bob.token })).body).toHaveLength(1);
    expect((await t.call('GET', keysPath('not-a-uuid'), { token: alice.token })).status).toBe(404);
    expect((await t.call('GET', keysPath(appId))).status).toBe(401);
  });

  it('deletes a key (204), then it is gone', async () => {
    const key = (await createKey({ name: 'Temporary' })).body;
    const del = await t.call('DELETE', `${keysPath(appId)}${key.uuid}/`, { token: alice.token });
    expect(del.status).toBe(204);
    const again = await t.call('DELETE', `${keysPath(appId)}${key.uuid}/`, { token: alice.token });
    expect(again.status).toBe(404);
    const list = await t.call('GET', keysPath(appId), { token: alice.token });
    expect(list.body.map((k: { uuid: string }) => k.uuid)).not.toContain(key.uuid);
  });

  it(`allows at most ${API_KEYS_MAX} keys per application`, async () => {
    const app = await createApp(alice.token, 'Many keys');
    for (let i = 0; i < API_KEYS_MAX; i++)
      expect((await createKey({ name: `k${i}` }, alice.token, app)).status).toBe(201);
    const over = await createKey({ name: 'one too many' }, alice.token, app);
    expect(over.status).toBe(409);
    expect(over.body.detail).toContain(String(API_KEYS_MAX));
  });

  it('deleting the application deletes its keys', async () => {
    const app = await createApp(alice.token, 'Short-lived');
    await createKey({ name: 'doomed' }, alice.token, app);
    const count = async () =>
      Number(
        (
          await t.database.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM api_keys k JOIN applications a ON a.id = k.application_id WHERE a.uuid = $1',
            [app],
          )
        ).rows[0]!.n,
      );
    expect(await count()).toBe(1);
    expect((await t.call('DELETE', `/api/applications/${app}/`, { token: alice.token })).status).toBe(204);
    const { rows } = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api_keys WHERE name = 'doomed'`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
