import { expect, PASSWORD, test } from './fixtures';
import { shoot } from './look';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

test.describe('auth gate', () => {
  test('a visitor goes to /login?redirectTo=<path> and comes back after signing in', async ({
    page,
    sharedUser,
    allowConsoleError,
  }) => {
    // The sign-in page posts a plain form: a refused attempt is a 400 page, which the browser logs.
    allowConsoleError(/status of 400/);
    await page.goto('/settings/integrations?tab=all');
    await expect(page).toHaveURL('/login?redirectTo=%2Fsettings%2Fintegrations%3Ftab%3Dall');
    // A failed attempt keeps the destination.
    await page.getByLabel('Email').fill(sharedUser.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('[data-form-error]')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL('/login?redirectTo=%2Fsettings%2Fintegrations%3Ftab%3Dall');
    await page.getByLabel('Email').fill(sharedUser.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL('/settings/integrations?tab=all');
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
  });

  test('every signed-in page redirects a visitor; public pages do not', async ({ page }) => {
    const gated = [
      '/',
      '/settings/models',
      '/settings/notification-profile',
      '/applications/00000000-0000-4000-8000-000000000000',
      '/applications/00000000-0000-4000-8000-000000000000/knowledge-base',
      '/applications/00000000-0000-4000-8000-000000000000/api-keys-and-widget',
      '/applications/00000000-0000-4000-8000-000000000000/messages/new_chat',
    ];
    for (const path of gated) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/login(\?|$)/);
    }
    await expect(page).toHaveURL(
      `/login?redirectTo=${encodeURIComponent('/applications/00000000-0000-4000-8000-000000000000/messages/new_chat')}`,
    );
    for (const path of ['/login', '/register', '/forgot-password', '/reset-password?token=x']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(path);
    }
  });

  test('a signed-in user opening /login or /register goes to /', async ({ page, signIn }) => {
    const user = await signIn();
    const app = await user.createApplication('Gate check');
    for (const path of ['/login', '/register']) {
      await page.goto(path);
      // `/` lists the applications.
      await expect(page).toHaveURL('/');
      await expect(page.getByRole('link', { name: app.name })).toBeVisible();
    }
  });

  test('a revoked token is cleared and the visitor signs in again', async ({
    page,
    context,
    api,
    signIn,
    server,
  }) => {
    const user = await signIn();
    const token = await api.login(user.email);
    await context.addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await api.call('POST', '/api/logout/', { token });
    await page.goto('/settings/models');
    await expect(page).toHaveURL('/login?redirectTo=%2Fsettings%2Fmodels');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'auth_token')).toBeUndefined();
  });
});

test.describe('errors', () => {
  test('unknown paths and malformed ids are the 404 page', async ({ page, signIn, allowConsoleError }) => {
    allowConsoleError(/status of 404/);
    const user = await signIn();
    const app = await user.createApplication('Errors');
    const paths = [
      '/no-such-page',
      '/applications/not-a-uuid',
      '/applications/not-a-uuid/knowledge-base',
      `/applications/${app.uuid}/messages/not-a-chatroom`,
      // Well-formed but not one of the user's applications.
      '/applications/00000000-0000-4000-8000-000000000000',
      `/applications/${app.uuid}/unknown`,
      '/settings',
      '/logout',
    ];
    for (const path of paths) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' }), path).toBeVisible();
    }
    // A valid chatroom id shape and the draft chatroom are fine.
    const res = await page.goto(`/applications/${app.uuid}/messages/new_chat`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'New Chat' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).isVisible();
  });

  test('the 404 page for a visitor, without signing in', async ({ page, allowConsoleError, checkA11y }) => {
    allowConsoleError(/status of 404/);
    const res = await page.goto('/definitely/not/here');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await checkA11y();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/login/);
  });

  test('crawlers get the status and a plain body, not the error page', async ({ request }) => {
    const bot = { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
    const notFound = await request.get('/no-such-page', { headers: bot });
    expect(notFound.status()).toBe(404);
    expect(notFound.headers()['content-type']).toContain('text/plain');
    expect(await notFound.text()).toBe('Page Not Found');

    const person = await request.get('/no-such-page');
    expect(person.status()).toBe(404);
    expect(person.headers()['content-type']).toContain('text/html');
    expect(await person.text()).toContain('Page Not Found');

    // Pages that work are rendered for crawlers as for anyone.
    const login = await request.get('/login', { headers: bot });
    expect(login.status()).toBe(200);
    expect(await login.text()).toContain('<h1');
  });

  test('an unhandled client error switches to the error page', async ({
    page,
    signIn,
    allowConsoleError,
  }) => {
    allowConsoleError(/boom/);
    await signIn();
    await page.goto('/settings/models');
    await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('boom');
      });
    });
    await expect(page.getByRole('heading', { level: 1, name: 'Internal Server Error' })).toBeVisible();
  });

  test('API paths keep JSON errors', async ({ request }) => {
    const res = await request.get('/api/no-such-endpoint/');
    expect(res.status()).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });
});

test.describe('layout', () => {
  test('the sidebar reaches every page; the body carries bg-background', async ({
    page,
    signIn,
    api,
    checkA11y,
  }) => {
    const user = await signIn();
    const first = await user.createApplication('Alpha');
    const second = await user.createApplication('Beta');
    await page.goto(`/applications/${first.uuid}`);
    await expect(page.locator('body')).toHaveClass(/(^|\s)bg-background(\s|$)/);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await expect(sidebar.getByText('No chats yet.')).toBeVisible();

    const visits: [string, string, RegExp][] = [
      ['Overview', 'Alpha', new RegExp(`/applications/${first.uuid}$`)],
      ['Knowledge base', 'Knowledge base', new RegExp(`/applications/${first.uuid}/knowledge-base$`)],
      [
        'API keys & widget',
        'API keys & widget',
        new RegExp(`/applications/${first.uuid}/api-keys-and-widget$`),
      ],
      ['New Chat', 'New Chat', new RegExp(`/applications/${first.uuid}/messages/new_chat$`)],
      ['Models', 'Models', /\/settings\/models$/],
      ['Integrations', 'Integrations', /\/settings\/integrations$/],
      ['Notification profile', 'Notification profile', /\/settings\/notification-profile$/],
    ];
    for (const [link, heading, url] of visits) {
      await sidebar.getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(sidebar.getByRole('link', { name: link, exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await checkA11y();
    }

    // Without an appId in the path the first application is selected (specification §2).
    const listed = (await api.call<{ uuid: string }[]>('GET', '/api/applications/', { token: user.token }))
      .body;
    await sidebar.getByRole('link', { name: 'Overview', exact: true }).click();
    await expect(page).toHaveURL(`/applications/${listed[0]!.uuid}`);

    // The switcher lists both applications and selects the chosen one.
    await sidebar.getByRole('button', { name: /Switch application/ }).click();
    await page.getByRole('menuitem', { name: 'Beta' }).click();
    await expect(page).toHaveURL(`/applications/${second.uuid}`);
    await expect(sidebar.getByRole('button', { name: 'Application Beta Switch application' })).toBeVisible();
  });

  test('keyboard only: switcher, create dialog focus handling', async ({ page, signIn }) => {
    const user = await signIn();
    const app = await user.createApplication('Keys');
    await page.goto(`/applications/${app.uuid}`);
    const trigger = page.getByRole('button', { name: /Switch application/ });
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('End');
    await expect(page.getByRole('menuitem', { name: 'Create application' })).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create application' });
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('End');
    await expect(page.getByRole('menuitem', { name: 'Create application' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('Typed by keyboard');
    await page.keyboard.press('Enter');
    // The new application opens and the dialog is gone.
    await expect(page.getByRole('heading', { level: 1, name: 'Typed by keyboard' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/applications/${UUID.source}$`));
    expect(page.url()).not.toContain(app.uuid);
  });

  test('below 768 px the sidebar is a drawer', async ({ page, signIn, checkA11y }) => {
    const user = await signIn();
    const app = await user.createApplication('Pocket');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`/applications/${app.uuid}`);
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeHidden();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await expect(drawer).toBeVisible();
    await checkA11y();
    await drawer.getByRole('link', { name: 'Knowledge base' }).click();
    await expect(page).toHaveURL(`/applications/${app.uuid}/knowledge-base`);
    await expect(drawer).toBeHidden();
    // No horizontal scrolling at phone width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('sign-out revokes the token, clears the cookie and shows the sign-in page', async ({
    page,
    context,
    api,
    sharedUser,
    server,
  }) => {
    const token = await api.login(sharedUser.email);
    await context.addCookies([{ name: 'auth_token', value: token, url: server.url, httpOnly: true }]);
    await page.goto('/settings/models');
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByLabel('Email')).toHaveValue('');
    expect((await context.cookies()).find((c) => c.name === 'auth_token')).toBeUndefined();
    const me = await api.call('GET', '/api/me/', { token });
    expect(me.status).toBe(401);
    // Back does not show the signed-in page any more.
    await page.goto('/settings/models');
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
  });
});

test.describe('reload guard', () => {
  test('a new build id makes the next navigation a full page load', async ({ page, signIn }) => {
    await signIn();
    await page.goto('/settings/models');
    const live = await (await page.request.get('/version.json')).json();
    expect(live.buildId).toEqual(expect.any(String));
    await page.evaluate(() => {
      (window as unknown as { marker?: boolean }).marker = true;
    });
    const marker = () => page.evaluate(() => (window as unknown as { marker?: boolean }).marker ?? false);

    // Same build: navigations stay client-side.
    await page.getByRole('link', { name: 'Integrations' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
    expect(await marker()).toBe(true);

    // The server now reports another build; the client notices when the window gets focus.
    await page.route('**/version.json', (route) => route.fulfill({ json: { buildId: 'a-newer-build' } }));
    const checked = page.waitForResponse('**/version.json');
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await checked;
    const loaded = page.waitForEvent('load');
    await page.getByRole('link', { name: 'Notification profile' }).click();
    await loaded;
    await expect(page).toHaveURL('/settings/notification-profile');
    expect(await marker()).toBe(false);
    await expect(page.getByRole('heading', { level: 1, name: 'Notification profile' })).toBeVisible();
    // The guard recorded the reload of this path (at most once per 10 s).
    const stamp = await page.evaluate(() =>
      sessionStorage.getItem('cairn:reloaded:/settings/notification-profile'),
    );
    expect(Number(stamp)).toBeGreaterThan(0);
  });
});

test.describe('themes', () => {
  test('theme and mode survive a reload and are applied by the server', async ({ page, signIn, request }) => {
    await signIn();
    await page.goto('/settings/models');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'gray');
    await expect(html).toHaveAttribute('data-mode', 'system');

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Theme' }).click();
    await page.getByRole('menuitemradio', { name: 'Violet' }).click();
    await expect(html).toHaveAttribute('data-theme', 'violet');
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await expect(html).toHaveAttribute('data-mode', 'dark');
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => (await page.context().cookies()).find((c) => c.name === 'theme')?.value)
      .toBe('violet.dark');

    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'violet');
    await expect(html).toHaveAttribute('data-mode', 'dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');

    // Server-rendered: the HTML already carries the choice (no flash before hydration).
    const ssr = await request.get('/login', { headers: { cookie: 'theme=blue.light' } });
    expect(await ssr.text()).toMatch(/<html lang="en" data-theme="blue" data-mode="light"/);
  });

  test('the public pages offer the theme too, without JavaScript', async ({ page }) => {
    await page.goto('/login?redirectTo=%2Fsettings%2Fmodels');
    // A native disclosure whose buttons post the choice to /theme, which sends the browser back.
    const toggle = page.locator('summary', { hasText: 'Theme' });
    await toggle.click();
    await page.getByRole('button', { name: 'Blue' }).click();
    await expect(page).toHaveURL('/login?redirectTo=%2Fsettings%2Fmodels');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'blue');
    await toggle.click();
    // The current choices are marked, for the eye (a dot, as in the signed-in menu) and for screen readers.
    await expect(page.getByRole('button', { name: 'Blue' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Gray' })).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('button', { name: 'Blue' }).locator('[data-current]')).toBeVisible();
    await expect(page.getByRole('button', { name: 'System' }).locator('[data-current]')).toBeVisible();
    await expect(page.locator('summary + form [data-current]')).toHaveCount(2);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await shoot(page, 'public-theme-menu', { fullPage: false });
    }
    await page.getByRole('button', { name: 'Dark' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'dark');
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Dark' }).locator('[data-current]')).toBeVisible();
    await expect(page.locator('summary + form [data-current]')).toHaveCount(2);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await shoot(page, 'public-theme-menu', { fullPage: false });
    }
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'blue');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'blue');
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'dark');
    // No script at all on the public pages.
    expect(await page.locator('script[src], script[type="module"], link[rel="modulepreload"]').count()).toBe(
      0,
    );
  });
});

test('the sidebar shows the latest 30 chats and leads to the others in the conversation log', async ({
  page,
  api,
  ownerWithApplication,
  checkA11y,
}) => {
  const { user, app } = await ownerWithApplication('many-chats', 'Busy desk');
  const me = await api.call<{ sender_identifier: string }>('GET', '/api/me/', { token: user.token });
  for (let i = 1; i <= 31; i++) {
    const sent = await api.call('POST', `/api/applications/${app.uuid}/chatrooms/send-message/`, {
      token: user.token,
      json: {
        chatroom_identifier: 'new_chat',
        message: `Question ${String(i).padStart(2, '0')} about the ferry timetable`,
        sender_identifier: me.body.sender_identifier,
        metadata: { source: 'web' },
        send_to_user: false,
      },
    });
    expect(sent.status).toBe(201);
  }
  await page.goto(`/applications/${app.uuid}/knowledge-base`);
  const rooms = page.getByRole('list', { name: 'Chatrooms' }).getByRole('listitem');
  await expect(rooms).toHaveCount(30);
  await expect(rooms.first()).toContainText('Question 31');
  await expect(rooms.last()).toContainText('Question 02');
  await page.getByRole('link', { name: 'All chats' }).scrollIntoViewIfNeeded();
  await shoot(page, 'sidebar-all-chats', { fullPage: false });
  await checkA11y(page);
  await page.getByRole('link', { name: 'All chats' }).click();
  await expect(page).toHaveURL(`/applications/${app.uuid}/conversations?source=web`);
  await expect(page.getByRole('heading', { level: 1, name: 'Conversations' })).toBeVisible();
});
