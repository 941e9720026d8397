import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await startTestApp();
  alice = (await t.signUp()).token;
  bob = (await t.signUp()).token;
});
afterAll(() => t.close());

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

describe('applications', () => {
  it('creates from multipart with a trimmed name and the built-in models', async () => {
    const res = await t.call('POST', '/api/applications/', {
      token: alice,
      form: form({ name: '  Support bot  ' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Support bot');
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.llm_models.map((m: { model_type: string }) => m.model_type)).toEqual([
      'text',
      'embedding',
    ]);
    const list = await t.call('GET', '/api/applications/', { token: alice });
    expect(list.body.map((a: { uuid: string }) => a.uuid)).toContain(res.body.uuid);
  });

  it('rejects a blank or too long name with the field error', async () => {
    const blank = await t.call('POST', '/api/applications/', { token: alice, form: form({ name: '   ' }) });
    expect(blank.status).toBe(400);
    expect(blank.body.errors.name).toEqual(['Required']);
    const missing = await t.call('POST', '/api/applications/', { token: alice, form: form({}) });
    expect(missing.body.errors.name).toEqual(['Required']);
    const long = await t.call('POST', '/api/applications/', {
      token: alice,
      form: form({ name: 'x'.repeat(256) }),
    });
    expect(long.status).toBe(400);
    expect(long.body.errors.name[0]).toMatch(/255/);
    const max = await t.call('POST', '/api/applications/', {
      token: alice,
      form: form({ name: 'x'.repeat(255) }),
    });
    expect(max.status).toBe(201);
  });

  it('accepts JSON as well, for API clients', async () => {
    const res = await t.call('POST', '/api/applications/', { token: alice, json: { name: 'From JSON' } });
    expect(res.status).toBe(201);
  });

  it('reads, renames and deletes; another user gets 404 for each', async () => {
    const created = (await t.call('POST', '/api/applications/', { token: alice, json: { name: 'Mine' } }))
      .body;
    const path = `/api/applications/${created.uuid}/`;
    for (const [method, json] of [['GET'], ['PATCH', { name: 'Stolen' }], ['DELETE']] as const) {
      const res = await t.call(method, path, { token: bob, json });
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await t.call('GET', '/api/applications/', { token: bob })).body).toEqual([]);
    const renamed = await t.call('PATCH', path, { token: alice, json: { name: ' Renamed ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    expect((await t.call('PATCH', path, { token: alice, json: { name: '' } })).status).toBe(400);
    expect((await t.call('GET', path, { token: alice })).body.name).toBe('Renamed');
    expect((await t.call('DELETE', path, { token: alice })).status).toBe(204);
    expect((await t.call('GET', path, { token: alice })).status).toBe(404);
  });

  it('treats a malformed id as not found and requires authentication', async () => {
    expect((await t.call('GET', '/api/applications/not-a-uuid/', { token: alice })).status).toBe(404);
    const anon = await t.call('GET', '/api/applications/');
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Token');
  });
});
