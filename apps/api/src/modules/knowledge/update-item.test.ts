import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith } from '../../testing/chat-fixtures.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let owner: { token: string };
let app: { uuid: string; items: string[] };
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.signUp();
  app = await applicationWith(t, owner.token, [{ title: 'Hours', text: 'The shop opens at nine.' }]);
});
afterAll(() => t.close());

const patch = (json: unknown, token = owner.token, item = app.items[0]) =>
  t.call('PATCH', `/api/applications/${app.uuid}/knowledge/${item}/`, { token, json });

describe('PATCH …/knowledge/{itemId}/', () => {
  it('switches an item off and on, and says so in the list', async () => {
    expect(await patch({ enabled: false })).toMatchObject({ status: 200, body: { enabled: false } });
    const list = await t.call('GET', `/api/applications/${app.uuid}/knowledge/`, { token: owner.token });
    expect(list.body[0]).toMatchObject({ uuid: app.items[0], enabled: false });
    expect(await patch({ enabled: true })).toMatchObject({ status: 200, body: { enabled: true } });
  });

  it('refuses a body that changes nothing or says something else, and hides other owners’ items', async () => {
    for (const body of [{}, { enabled: 'no' }, { enabled: null }, { title: 'x' }, [], 'enabled'])
      expect((await patch(body)).status).toBe(400);
    const stranger = await t.signUp();
    expect((await patch({ enabled: false }, stranger.token)).status).toBe(404);
    expect(
      (await patch({ enabled: false }, owner.token, '00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
  });
});
