import { expect, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

// The time-zone picker starts on the browser's zone.
test.use({ timezoneId: 'Europe/Paris' });

test('notification profile: matrix, delay, quiet hours in the browser’s zone, tests; the bell live', async ({
  page,
  api,
  server,
  signIn,
  checkA11y,
  allowConsoleError,
}) => {
  // The refused save below: the browser logs the API's 400.
  allowConsoleError(/status of 400/);
  const owner = await api.newUser('notify');
  await signIn(owner);
  await page.goto('/settings/notification-profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Notification profile' })).toBeVisible();

  const box = (name: string) => page.getByRole('checkbox', { name, exact: true });
  // Defaults: handoffs and failures by e-mail; uncovered questions nowhere (the inbox lists them);
  // in-app is a channel like the others; Slack only once a channel is chosen.
  await expect(box('A visitor asks for a person: E-mail')).toBeChecked();
  await expect(box('An answer gets a thumbs down: E-mail')).not.toBeChecked();
  await expect(box('An answer gets a thumbs down: In app')).toBeChecked();
  await expect(box('An answer gets a thumbs down: In app')).toBeEnabled();
  await expect(box('The knowledge did not cover a question: In app')).not.toBeChecked();
  await expect(box('A visitor asks for a person: Push')).toBeEnabled();
  await expect(box('A visitor asks for a person: Push')).not.toBeChecked();
  await expect(box('A visitor asks for a person: Slack')).toBeDisabled();

  // Push in this browser: the browser refuses (headless Chromium grants no permission), and says so.
  const pushStatus = page.getByRole('region', { name: 'Push in this browser' }).getByRole('status');
  await expect(pushStatus).toHaveText('Push is off in this browser.');
  await page.getByRole('button', { name: 'Turn on push in this browser' }).click();
  await expect(pushStatus).toHaveText(/blocks notifications from this site|did not get an answer/);
  // The service worker a browser that allows push registers: served from the root, as JavaScript.
  const worker = await page.request.get('/push-sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['content-type']).toMatch(/javascript/);
  expect(await worker.text()).toContain("addEventListener('push'");

  await box('An answer gets a thumbs down: E-mail').check();
  await box('An answer gets a thumbs down: In app').uncheck();
  await page.getByRole('spinbutton', { name: 'Wait before e-mailing (minutes)' }).fill('10');
  await page.getByRole('checkbox', { name: /Hold e-mails during quiet hours/ }).check();
  await expect(page.getByRole('combobox', { name: 'Time zone', exact: true })).toHaveValue('Europe/Paris');
  await page.getByLabel('From').fill('21:30');
  await page.getByLabel('Until').fill('06:45');
  await page.getByRole('combobox', { name: 'Frequency' }).selectOption('daily');
  await page.getByRole('combobox', { name: 'At' }).selectOption('8');
  await expect(page.getByRole('combobox', { name: 'Digest time zone' })).toHaveValue('Europe/Paris');
  await checkA11y();
  await shoot(page, 'notification-profile');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Notification profile saved')).toBeVisible();

  const saved = await api.call<Record<string, unknown>>('GET', '/api/notification-profile/', {
    token: owner.token,
  });
  expect(saved.body).toMatchObject({
    events: { negative_feedback: ['email'] },
    email_delay_minutes: 10,
    quiet_hours: { start: '21:30', end: '06:45', time_zone: 'Europe/Paris', urgent_handoff: true },
    digest: 'daily',
    digest_hour: 8,
    time_zone: 'Europe/Paris',
  });
  await page.reload();
  await expect(box('An answer gets a thumbs down: E-mail')).toBeChecked();
  await expect(box('An answer gets a thumbs down: In app')).not.toBeChecked();
  await expect(page.getByLabel('From')).toHaveValue('21:30');

  // A bad value is refused on its field.
  await page.getByRole('spinbutton', { name: 'Wait before e-mailing (minutes)' }).fill('-5');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Must be 0 or more')).toBeVisible();
  await page.getByRole('spinbutton', { name: 'Wait before e-mailing (minutes)' }).fill('10');

  // "Send me a test": an e-mail in the outbox, with the one-click unsubscribe header.
  await page.getByRole('button', { name: 'Send me a test e-mail' }).click();
  await expect(page.getByText(`Test e-mail sent to ${owner.email}`)).toBeVisible();
  const mail = await server.lastMail(owner.email);
  expect(mail.subject).toBe('Test e-mail from Cairn');

  // The bell: the in-app test arrives live, links where it points, and is marked read when opened.
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Send me a test notification' }).click();
  await expect(sidebar.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  // A real event, from elsewhere: a knowledge item that cannot be fetched.
  const application = await owner.createApplication('Lighthouse');
  const form = new FormData();
  form.set('items[0].type', 'url');
  form.set('items[0].value', 'http://127.0.0.1:1/closed');
  const added = await api.call('POST', `/api/applications/${application.uuid}/knowledge/`, {
    token: owner.token,
    form,
  });
  expect(added.status).toBe(201);
  await expect(sidebar.getByRole('button', { name: 'Notifications, 2 unread' })).toBeVisible();

  await sidebar.getByRole('button', { name: 'Notifications, 2 unread' }).click();
  const popover = page.getByRole('dialog', { name: 'Notifications' });
  const list = popover.getByRole('list', { name: 'Latest notifications' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('link').first()).toContainText('A knowledge item could not be indexed');
  // Toasts fade out over the popover; axe would measure them half-transparent.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await checkA11y();
  await shoot(page, 'notification-bell');
  await list.getByRole('link', { name: /A knowledge item could not be indexed/ }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/${application.uuid}/knowledge-base$`));
  await expect(sidebar.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();

  // Phone width, dark: the bell sits in the header; the screen fits the width.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/settings/notification-profile');
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await checkA11y();
  await shoot(page, 'notification-profile');
  await header.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(header.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Notifications' }).getByText('(unread)')).toHaveCount(0);
  await checkA11y();
  await shoot(page, 'notification-bell');
});
