import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productEventsSettled } from '../../testing/product-events-settled.ts';
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
    await productEventsSettled(t.app);
    expect(onDisk(doomedFiles.find((p) => p !== keptFile)!)).toBe(false);
    expect(onDisk(keptFile)).toBe(true);
  });

  it('keeps conversations forever by default; retention is 1 to 3650 whole days or null', async () => {
    const created = (await t.call('POST', '/api/applications/', { token: alice, json: { name: 'Kept' } }))
      .body;
    expect(created.conversation_retention_days).toBeNull();
    const path = `/api/applications/${created.uuid}/`;
    const patch = (value: unknown) =>
      t.call('PATCH', path, { token: alice, json: { conversation_retention_days: value } });
    for (const days of [1, 90, 3650]) {
      const res = await patch(days);
      expect(res.status).toBe(200);
      expect(res.body.conversation_retention_days).toBe(days);
    }
    expect((await t.call('GET', path, { token: alice })).body.conversation_retention_days).toBe(3650);
    // Other fields leave it as it is.
    expect((await t.call('PATCH', path, { token: alice, json: { name: 'Kept 2' } })).body).toMatchObject({
      conversation_retention_days: 3650,
    });
    for (const bad of [0, -1, 3651, 1.5, '90', '', 'forever', '9\u0000', true, [], {}, 1e308]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.errors.conversation_retention_days, JSON.stringify(bad)).toBeDefined();
    }
    const forever = await patch(null);
    expect(forever.status).toBe(200);
    expect(forever.body.conversation_retention_days).toBeNull();
    expect(
      (await t.call('PATCH', path, { token: bob, json: { conversation_retention_days: 30 } })).status,
    ).toBe(404);
  });

  it('treats a malformed id as not found and requires authentication', async () => {
    expect((await t.call('GET', '/api/applications/not-a-uuid/', { token: alice })).status).toBe(404);
    const anon = await t.call('GET', '/api/applications/');
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Token');
  });
});

describe('duplicating and summarising applications', () => {
  const texts = [
    { title: 'Glaciers', value: 'Glaciers are slow rivers of ice that retreat as the climate warms.' },
    { title: 'Bread', value: 'Bread is made from flour, water, salt and yeast.' },
  ];
  const withItems = (name: string) => {
    const f = form({ name });
    texts.forEach((item, i) => {
      f.set(`items[${i}].type`, 'text');
      f.set(`items[${i}].title`, item.title);
      f.set(`items[${i}].value`, item.value);
    });
    return f;
  };
  const items = (uuid: string) =>
    t.call<Array<{ uuid: string; title: string; status: string }>>(
      'GET',
      `/api/applications/${uuid}/knowledge/`,
      { token: alice },
    );
  async function settled(uuid: string) {
    for (let i = 0; i < 300; i++) {
      const res = await items(uuid);
      if (res.body.length > 0 && res.body.every((x) => x.status === 'ready' || x.status === 'failed')) {
        return res.body;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('items did not settle');
  }
  const searchTitles = async (uuid: string, query: string) => {
    const res = await t.call('POST', `/api/applications/${uuid}/knowledge/search/`, {
      token: alice,
      json: { query, top_k: 5 },
    });
    expect(res.status).toBe(200);
    return (res.body.results as Array<{ item_title: string; item_uuid: string }>).map((r) => r.item_title);
  };

  it('copies settings, widget appearance and searchable knowledge, but not conversations or keys', async () => {
    const original = (
      await t.call('POST', '/api/applications/', { token: alice, form: withItems('Handbook') })
    ).body;
    const base = `/api/applications/${original.uuid}`;
    await t.call('PATCH', `${base}/`, {
      token: alice,
      json: {
        instructions: 'Answer briefly.',
        temperature: 0.7,
        strictness: 'balanced',
        no_answer_message: 'Ask us.',
        conversation_retention_days: 90,
      },
    });
    const widget = await t.call('PATCH', `${base}/widget/`, {
      token: alice,
      json: { enabled: true, title: 'Help desk', allowed_origins: ['https://shop.example'] },
    });
    expect(widget.status).toBe(200);
    expect(
      (await t.call('POST', `${base}/api-keys/`, { token: alice, json: { name: 'Backend' } })).status,
    ).toBe(201);
    const me = (await t.call('GET', '/api/me/', { token: alice })).body;
    const sent = await t.call('POST', `${base}/chatrooms/send-message/`, {
      token: alice,
      json: {
        chatroom_identifier: 'new_chat',
        message: 'What is bread made from?',
        sender_identifier: me.sender_identifier,
        metadata: { source: 'web' },
      },
    });
    expect(sent.status).toBeLessThan(300);
    const readyOriginal = await settled(original.uuid);

    const res = await t.call('POST', `${base}/duplicate/`, { token: alice, json: {} });
    expect(res.status).toBe(201);
    const copy = res.body;
    expect(copy.uuid).not.toBe(original.uuid);
    expect(copy).toMatchObject({
      name: 'Handbook (copy)',
      instructions: 'Answer briefly.',
      temperature: 0.7,
      strictness: 'balanced',
      no_answer_message: 'Ask us.',
      conversation_retention_days: 90,
      llm_models: original.llm_models,
    });
    // Indexed knowledge is copied with its index: ready and searchable at once, in its own items.
    const copied = (await items(copy.uuid)).body;
    expect(copied.map((i) => [i.title, i.status])).toEqual(readyOriginal.map((i) => [i.title, 'ready']));
    expect(copied.map((i) => i.uuid)).not.toContain(readyOriginal[0]!.uuid);
    expect((await searchTitles(copy.uuid, 'glaciers retreat'))[0]).toBe('Glaciers');

    const copyWidget = (await t.call('GET', `/api/applications/${copy.uuid}/widget/`, { token: alice })).body;
    expect(copyWidget).toMatchObject({
      enabled: false,
      title: 'Help desk',
      allowed_origins: ['https://shop.example'],
    });

    const summaries = await t.call('GET', '/api/applications/summaries/', { token: alice });
    expect(summaries.status).toBe(200);
    const countsOf = (uuid: string) => summaries.body.find((s: { uuid: string }) => s.uuid === uuid)?.counts;
    expect(countsOf(original.uuid)).toEqual({
      knowledge_items: 2,
      conversations: 1,
      api_keys: 1,
      widget_enabled: true,
    });
    expect(countsOf(copy.uuid)).toEqual({
      knowledge_items: 2,
      conversations: 0,
      api_keys: 0,
      widget_enabled: false,
    });
    const bobs = (await t.call('GET', '/api/applications/summaries/', { token: bob })).body;
    expect(bobs.map((s: { uuid: string }) => s.uuid)).not.toContain(original.uuid);

    // The copy shares the stored originals: deleting the original leaves the copy whole.
    expect((await t.call('DELETE', `${base}/`, { token: alice })).status).toBe(204);
    expect((await searchTitles(copy.uuid, 'flour yeast'))[0]).toBe('Bread');
    const { rows } = await t.database.query<{ file_path: string }>(
      `SELECT k.file_path FROM knowledge_items k JOIN applications a ON a.id = k.application_id WHERE a.uuid = $1`,
      [copy.uuid],
    );
    expect(rows.every((r) => fs.existsSync(path.join(t.config.dataDir, 'files', r.file_path)))).toBe(true);
  });

  it('copies knowledge that is still being indexed too: the copy indexes it itself', async () => {
    const original = (await t.call('POST', '/api/applications/', { token: alice, form: withItems('Fresh') }))
      .body;
    // At once, before the original's items are (all) indexed.
    const copy = await t.call('POST', `/api/applications/${original.uuid}/duplicate/`, { token: alice });
    expect(copy.status).toBe(201);
    const items = await settled(copy.body.uuid);
    expect(items.map((i) => [i.title, i.status])).toEqual(texts.map((x) => [x.title, 'ready']));
    expect((await searchTitles(copy.body.uuid, 'glaciers retreat'))[0]).toBe('Glaciers');
  });

  it('takes a name, and answers bad input and other owners with the documented errors', async () => {
    const original = (
      await t.call('POST', '/api/applications/', { token: alice, json: { name: 'x'.repeat(255) } })
    ).body;
    const path = `/api/applications/${original.uuid}/duplicate/`;
    const noBody = await t.call('POST', path, { token: alice });
    expect(noBody.status, JSON.stringify(noBody.body)).toBe(201);
    expect(noBody.body.name).toBe(`${'x'.repeat(248)} (copy)`);
    const named = await t.call('POST', path, { token: alice, json: { name: '  Staging  ' } });
    expect(named.status).toBe(201);
    expect(named.body.name).toBe('Staging');
    for (const name of ['', '   ', 'x'.repeat(256), 42, 'two\nlines']) {
      const res = await t.call('POST', path, { token: alice, json: { name } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(res.body.errors.name).toHaveLength(1);
    }
    expect((await t.call('POST', path, { token: alice, json: [1] })).status).toBe(400);
    const stolen = await t.call('POST', path, { token: bob, json: {} });
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('not_found');
    expect((await t.call('POST', '/api/applications/not-a-uuid/duplicate/', { token: alice })).status).toBe(
      404,
    );
    expect((await t.call('POST', path)).status).toBe(401);
    expect((await t.call('GET', '/api/applications/summaries/')).status).toBe(401);
  });
});
