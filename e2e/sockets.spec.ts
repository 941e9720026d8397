import type { WebSocket } from '@playwright/test';
import { expect, test } from './fixtures';
import { uploadHandbook } from './handbook';

test('a tab holds one socket across pages, and every page’s live updates come through it', async ({
  page,
  api,
  signIn,
}) => {
  const user = await signIn(await api.newUser('sockets'));
  const app = await user.createApplication('Lighthouse');
  await uploadHandbook(api, user.token, app.uuid);

  const opened: WebSocket[] = [];
  const closed: WebSocket[] = [];
  page.on('websocket', (socket) => {
    if (!new URL(socket.url()).pathname.startsWith('/api/ws')) return;
    opened.push(socket);
    socket.on('close', () => closed.push(socket));
  });
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });

  // Overview: the sidebar's chatrooms and the bell listen already.
  await page.goto(`/applications/${app.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Lighthouse' })).toBeVisible();
  await expect.poll(() => opened.length).toBe(1);

  // Knowledge: an item added elsewhere shows up and becomes ready without a reload (`kb_updates`).
  await sidebar.getByRole('link', { name: 'Knowledge base' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge base' })).toBeVisible();
  const form = new FormData();
  form.append('items[0].type', 'text');
  form.append('items[0].title', 'Tide table');
  form.append('items[0].value', 'Spring tides arrive two days after the full moon.');
  const added = await api.call('POST', `/api/applications/${app.uuid}/knowledge/`, {
    token: user.token,
    form,
  });
  expect(added.status).toBe(201);
  const tides = page.locator('[data-item]').filter({ hasText: 'Tide table' });
  await expect(tides).toContainText('Ready', { timeout: 30_000 });

  // Chat: the answer streams in and finishes (`message` events).
  await sidebar.getByRole('link', { name: 'New Chat' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New Chat' })).toBeVisible();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('When is the lamp of the lighthouse cleaned?');
  await box.press('Enter');
  const answer = page.getByRole('listitem', { name: 'Answer' });
  await expect(answer).toContainText('cleaned every Tuesday at dawn');
  await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible();

  // Needs attention: its own `kb_updates` subscription joins the same socket.
  await sidebar.getByRole('link', { name: 'Needs attention' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Needs attention' })).toBeVisible();

  expect(opened).toHaveLength(1);
  expect(closed).toHaveLength(0);
});
