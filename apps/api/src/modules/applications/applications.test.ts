import fs from 'node:fs';
import path from 'node:path';
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

  it('deletes the stored originals of its files with it, but not bytes another application holds', async () => {
    const upload = (name: string, files: [string, string][]) => {
      const f = form({ name });
      files.forEach(([file, text], i) => {
        f.set(`items[${i}].type`, 'file');
        f.set(`items[${i}].file`, new Blob([text]), file);
      });
      return f;
    };
    const doomed = await t.call('POST', '/api/applications/', {
      token: alice,
      form: upload('Doomed', [
        ['mine.txt', 'Only the doomed application holds these bytes.'],
        ['shared.txt', 'Two applications hold these very bytes.'],
      ]),
    });
    expect(doomed.status).toBe(201);
    const kept = await t.call('POST', '/api/applications/', {
      token: bob,
      form: upload('Kept', [['shared.txt', 'Two applications hold these very bytes.']]),
    });
    expect(kept.status).toBe(201);
    const { rows } = await t.database.query<{ file_path: string; name: string }>(
      `SELECT DISTINCT k.file_path, a.name FROM knowledge_items k JOIN applications a ON a.id = k.application_id
       WHERE a.uuid = ANY($1::uuid[])`,
      [[doomed.body.uuid, kept.body.uuid]],
    );
    const onDisk = (p: string) => fs.existsSync(path.join(t.config.dataDir, 'files', p));
    const doomedFiles = rows.filter((r) => r.name === 'Doomed').map((r) => r.file_path);
    const keptFile = rows.find((r) => r.name === 'Kept')!.file_path;
    expect(doomedFiles).toHaveLength(2);
    expect(doomedFiles).toContain(keptFile);
    expect(doomedFiles.every(onDisk)).toBe(true);

    // Another user's attempt deletes nothing.
    expect((await t.call('DELETE', `/api/applications/${doomed.body.uuid}/`, { token: bob })).status).toBe(
      404,
    );
    expect(doomedFiles.every(onDisk)).toBe(true);

    expect((await t.call('DELETE', `/api/applications/${doomed.body.uuid}/`, { token: alice })).status).toBe(
      204,
    );
    expect(onDisk(doomedFiles.find((p) => p !== keptFile)!)).toBe(false);
    expect(onDisk(keptFile)).toBe(true);
  });

  it('treats a malformed id as not found and requires authentication', async () => {
    expect((await t.call('GET', '/api/applications/not-a-uuid/', { token: alice })).status).toBe(404);
    const anon = await t.call('GET', '/api/applications/');
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Token');
  });
});
