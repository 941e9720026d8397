import type { Page } from '@playwright/test';
import { expect, PASSWORD, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';
import { visitorConversation } from './widget-visitor';

const NEW_PASSWORD = 'harbour-beacon-73';

const sessionsList = (page: Page) => page.getByRole('list', { name: 'Sessions' });

test('a password change signs out another browser; sessions end one by one or everywhere else', async ({
  page,
  browser,
  server,
  api,
  signIn,
  checkA11y,
}) => {
  const user = await signIn(await api.newUser('account'));
  // The same person signs in in a second browser.
  const other = await browser.newContext({ baseURL: server.url });
  const otherPage = await other.newPage();
  await otherPage.goto('/login?redirectTo=/settings/account');
  await otherPage.getByLabel('Email').fill(user.email);
  await otherPage.getByLabel('Password').fill(PASSWORD);
  await otherPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(otherPage.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();

  // Reached from the user menu.
  await page.goto('/');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/settings\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  const rows = sessionsList(page).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  // The newest first: the other browser, named from its user agent.
  await expect(rows.filter({ hasText: 'This browser' })).toHaveCount(1);
  await expect(rows.first()).toContainText('Chrome on Linux');
  await expect(rows.first()).toContainText('127.0.0.1 · last used');
  await shoot(page, 'account-sessions');
  await checkA11y();

  // A third sign-in, signed out on its own from the list.
  await api.login(user.email);
  await page.reload();
  await expect(rows).toHaveCount(3);
  await rows
    .filter({ hasNotText: 'This browser' })
    .first()
    .getByRole('button', { name: /^Sign out/ })
    .click();
  await expect(page.getByText('Session signed out')).toBeVisible();
  await expect(rows).toHaveCount(2);

  // A wrong current password is refused on its field, which gets the focus.
  const password = page.getByRole('form', { name: 'Password' });
  await password.getByLabel('Current password').fill('not-my-password');
  await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await password.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('That is not your current password')).toBeVisible();
  await expect(password.getByLabel('Current password')).toBeFocused();
  await shoot(page, 'account-password-error');

  // The right one: this browser stays signed in, the other one is out.
  await password.getByLabel('Current password').fill(PASSWORD);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByText('Your password was changed. Every other session was signed out.'),
  ).toBeVisible();
  await expect(password.getByLabel('Current password')).toHaveValue('');
  await expect(rows).toHaveCount(1);
  await expect(page.getByText('You are signed in nowhere else.')).toBeVisible();
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();
  expect(
    (await api.call('POST', '/api/login/', { json: { email: user.email, password: PASSWORD } })).status,
  ).toBe(400);
  await api.login(user.email, NEW_PASSWORD);

  // Two more sign-ins, and "sign out everywhere else".
  await api.login(user.email, NEW_PASSWORD);
  await page.reload();
  await expect(rows).toHaveCount(3);
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(page.getByText('2 other sessions signed out')).toBeVisible();
  await expect(rows).toHaveCount(1);
});

test('the profile sets the name a widget visitor sees on a human reply', async ({
  page,
  api,
  server,
  signIn,
}) => {
  const owner = await signIn(await api.newUser('account-name'));
  const app = await owner.createApplication('Harbour');
  const origin = 'https://harbour.example.com';
  const widget = await api.call('PATCH', `/api/applications/${app.uuid}/widget/`, {
    token: owner.token,
    json: { enabled: true, allowed_origins: [origin] },
  });
  expect(widget.status).toBe(200);

  await page.goto('/settings/account');
  const profile = page.getByRole('form', { name: 'Profile' });
  await profile.getByLabel('First name').fill('Ada');
  await profile.getByLabel('Last name').fill('Lovelace');
  await profile.getByLabel('Display name').fill('Ada at the harbour');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await expect(profile.getByText('now “Ada at the harbour”')).toBeVisible();

  const visitor = await visitorConversation(server.url, app.uuid, {
    origin,
    pageUrl: `${origin}/opening-hours`,
    message: 'Is the harbour open on Sunday?',
    handoff: true,
  });
  await page.goto(`/applications/${app.uuid}/messages/${visitor.uuid}`);
  await page.getByPlaceholder('Reply to the visitor…').fill('Yes, from nine.');
  await page.getByRole('button', { name: 'Send' }).click();

  // What the visitor's chat reads.
  await expect
    .poll(async () => {
      const res = await fetch(`${server.url}/api/widget/v1/conversations/${visitor.uuid}/`, {
        headers: { authorization: `Bearer ${visitor.token}` },
      });
      const body = (await res.json()) as { messages: Array<{ role: string; author_name: string | null }> };
      return body.messages.filter((m) => m.role === 'human').map((m) => m.author_name);
    })
    .toEqual(['Ada at the harbour']);
});

test('deleting the account says what goes, wants the password, and frees the address', async ({
  page,
  api,
  signIn,
  checkA11y,
  allowConsoleError,
  server,
}) => {
  allowConsoleError(/status of 400/);
  const user = await signIn(await api.newUser('account-delete'));
  await user.createApplication('Lighthouse');
  await page.goto('/settings/account');
  await page.getByRole('button', { name: 'Delete account…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toContainText('1 application, with its knowledge, stored files and conversations');
  await expect(dialog.getByLabel('Your password')).toBeFocused();
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByText('Required')).toBeVisible();
  await dialog.getByLabel('Your password').fill('not-my-password');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByText('That is not your current password')).toBeVisible();
  await shoot(page, 'account-delete-dialog', { fullPage: false });
  await checkA11y();

  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await api.call('GET', '/api/me/', { token: user.token })).status).toBe(401);
  await page.goto('/settings/account');
  await expect(page).toHaveURL(/\/login/);

  // The owner is told (by a queued e-mail); then the address is free: it registers, verifies and
  // signs in again.
  await server.lastMail(user.email, 'Your Cairn account was deleted');
  await api.register(user.email);
  await api.verify(user.email);
  await api.login(user.email);
});

test('at 375 px the page fits, in dark mode too', async ({ page, context, server, api, signIn }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await context.addCookies([{ name: 'theme', value: 'gray.dark', url: server.url }]);
  const user = await signIn(await api.newUser('account-phone'));
  await api.login(user.email);
  await page.goto('/settings/account');
  await expect(sessionsList(page).getByRole('listitem')).toHaveCount(2);
  await expectNoSidewaysScroll(page);
  await shoot(page, 'account-phone');
});
