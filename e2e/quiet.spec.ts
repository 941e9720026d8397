import { expect, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

/**
 * Quiet by default (decision 067): an assistant called through the API leaves the owner's sidebar
 * and bell alone, and conversations can be set to be deleted after a number of days.
 */

test('after 20 API calls the sidebar lists only the owner’s chats and the bell stays at 0', async ({
  page,
  api,
  server,
  signIn,
}) => {
  const owner = await api.newUser('quiet');
  await signIn(owner);
  const application = await owner.createApplication('Busy assistant');
  const me = await api.call<{ sender_identifier: string }>('GET', '/api/me/', { token: owner.token });
  const chat = async (message: string) => {
    const sent = await api.call<{ chatroom: { uuid: string } }>(
      'POST',
      `/api/applications/${application.uuid}/chatrooms/send-message/`,
      {
        token: owner.token,
        json: {
          chatroom_identifier: 'new_chat',
          message,
          sender_identifier: me.body.sender_identifier,
          metadata: { source: 'web' },
        },
      },
    );
    expect(sent.status).toBe(201);
  };
  await chat('My own question about lighthouses');
  const key = await api.call<{ key: string }>('POST', `/api/applications/${application.uuid}/api-keys/`, {
    token: owner.token,
    json: { name: 'Backend' },
  });
  expect(key.status).toBe(201);
  const callApi = async (n: number) => {
    const res = await fetch(`${server.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: application.uuid,
        messages: [{ role: 'user', content: `API question number ${n}` }],
      }),
    });
    expect(res.status).toBe(200);
  };
  for (let n = 1; n <= 20; n++) await callApi(n);

  await page.goto(`/applications/${application.uuid}`);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  const rooms = sidebar.getByRole('list', { name: 'Chatrooms' }).getByRole('listitem');
  await expect(rooms).toHaveCount(1);
  await expect(rooms).toHaveText(/My own question about lighthouses/);
  await expect(sidebar.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // Live, with the page open: another API call stays out, the owner's own new chat comes in.
  await callApi(21);
  await chat('Another chat of my own');
  await expect(rooms).toHaveCount(2);
  await expect(rooms.first()).toHaveText(/Another chat of my own/);
  await expect(sidebar.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  const bell = await api.call<{ unread_count: number; results: unknown[] }>('GET', '/api/notifications/', {
    token: owner.token,
  });
  expect(bell.body).toEqual({ unread_count: 0, results: [] });
  await page.reload();
  await expect(rooms).toHaveCount(2);

  // Looked at: the quiet sidebar (in the drawer on a phone) and the profile with in-app as a choice.
  for (const mode of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: mode });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/applications/${application.uuid}`);
      if (width === 375) {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await expect(page.getByRole('dialog', { name: 'Navigation' }).getByRole('listitem')).toHaveCount(2);
      } else await expect(rooms).toHaveCount(2);
      await expectNoSidewaysScroll(page);
      await shoot(page, 'quiet-sidebar', { fullPage: false });
      await page.goto('/settings/notification-profile');
      await expect(
        page.getByRole('checkbox', { name: 'An answer gets a thumbs down: In app' }),
      ).toBeEnabled();
      await expectNoSidewaysScroll(page);
      await shoot(page, 'quiet-notification-profile');
    }
  }
});

test('conversation retention is set on the application page, and checked', async ({
  page,
  api,
  signIn,
  checkA11y,
}) => {
  const owner = await api.newUser('retention');
  await signIn(owner);
  const application = await owner.createApplication('Short memory');
  const saved = async () =>
    (
      await api.call<{ conversation_retention_days: number | null }>(
        'GET',
        `/api/applications/${application.uuid}/`,
        { token: owner.token },
      )
    ).body.conversation_retention_days;
  await page.goto(`/applications/${application.uuid}`);
  const conversations = page.getByRole('group', { name: 'Conversations' });
  await expect(conversations.getByRole('radio', { name: 'Keep forever' })).toBeChecked();
  await expect(conversations).toContainText('analytics totals already counted stay');

  // Typing days chooses deleting after them; out of range is refused on the field.
  const days = conversations.getByRole('spinbutton', { name: 'Days to keep conversations' });
  await days.fill('0');
  await expect(conversations.getByRole('radio', { name: 'Delete conversations after' })).toBeChecked();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(conversations.getByText('A whole number of days from 1 to 3650')).toBeVisible();
  expect(await saved()).toBeNull();

  await days.fill('90');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect.poll(saved).toBe(90);
  await page.reload();
  await expect(conversations.getByRole('radio', { name: 'Delete conversations after' })).toBeChecked();
  await expect(days).toHaveValue('90');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await checkA11y();
  for (const mode of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: mode });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await conversations.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      await shoot(page, 'application-retention', { fullPage: false });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Keyboard: back to keeping forever.
  await conversations.getByRole('radio', { name: 'Keep forever' }).focus();
  await page.keyboard.press('Space');
  await expect(conversations.getByRole('radio', { name: 'Keep forever' })).toBeChecked();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect.poll(saved).toBeNull();
});
