import fs from 'node:fs';
import { expect, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';
import { visitorConversation } from './widget-visitor';

const SHOP = 'https://shop.example.com';

test('the log lists conversations from the API and the widget, searches, opens and exports them', async ({
  page,
  api,
  server,
  ownerWithApplication,
  checkA11y,
}) => {
  const { user, app } = await ownerWithApplication('log', 'Lighthouse');
  const base = `/applications/${app.uuid}/conversations`;

  // Empty: says where conversations come from; reached from the application's navigation.
  await page.goto(`/applications/${app.uuid}`);
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Conversations' })
    .click();
  await expect(page).toHaveURL(new RegExp(`${base}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Conversations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
  await checkA11y();

  // A caller of the public API with a key …
  const key = await api.call<{ key: string }>('POST', `/api/applications/${app.uuid}/api-keys/`, {
    token: user.token,
    json: { name: 'Shop backend' },
  });
  expect(key.status).toBe(201);
  const completion = await fetch(`${server.url}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.body.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: app.uuid, messages: [{ role: 'user', content: 'Do you rent bicycles?' }] }),
  });
  expect(completion.status).toBe(200);
  // … and a visitor of the shop, through the widget.
  const widget = await api.call('PATCH', `/api/applications/${app.uuid}/widget/`, {
    token: user.token,
    json: { enabled: true, allowed_origins: [SHOP] },
  });
  expect(widget.status).toBe(200);
  await visitorConversation(server.url, app.uuid, {
    origin: SHOP,
    pageUrl: `${SHOP}/visit`,
    message: 'Is the lighthouse open on Sundays?',
  });

  await page.reload();
  const list = page.getByRole('list', { name: 'Conversations' });
  const rows = list.getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Is the lighthouse open on Sundays?');
  await expect(rows.nth(0)).toContainText('Widget');
  await expect(rows.nth(1)).toContainText('Do you rent bicycles?');
  await expect(rows.nth(1)).toContainText('API');
  await checkA11y();

  // Looked at: 1280 and 375 px, light and dark.
  for (const mode of ['light', 'dark'] as const) {
    await page.context().addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await page.reload();
      await expect(rows).toHaveCount(2);
      await expectNoSidewaysScroll(page);
      await shoot(page, 'conversations');
      await checkA11y();
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // A search narrows the log, and stays in the URL.
  await page.getByRole('searchbox', { name: 'Search conversations' }).fill('bicycles');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/q=bicycles/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Do you rent bicycles?');

  // Filters combine with it; nothing matching says so and clears.
  await page.getByRole('checkbox', { name: 'Widget' }).check();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('heading', { name: 'No conversation matches' })).toBeVisible();
  await shoot(page, 'conversations-no-match');
  await page.getByRole('main').getByRole('link', { name: 'Clear filters' }).first().click();
  await expect(page).toHaveURL(new RegExp(`${base}$`));
  await expect(rows).toHaveCount(2);

  // Export, with the filters of the page.
  await page.getByRole('checkbox', { name: 'API' }).check();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(rows).toHaveCount(1);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^conversations-\d{4}-\d\d-\d\d\.csv$/);
  const csv = fs.readFileSync(await download.path());
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = csv.toString('utf8');
  expect(text).toContain('Do you rent bicycles?');
  expect(text).not.toContain('Sundays');

  // Opening a row shows its messages.
  await rows.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Do you rent bicycles?').first()).toBeVisible();
});

test('Load more brings the next page of the log', async ({ page, api, server, ownerWithApplication }) => {
  const { user, app } = await ownerWithApplication('log-more', 'Lighthouse');
  const key = await api.call<{ key: string }>('POST', `/api/applications/${app.uuid}/api-keys/`, {
    token: user.token,
    json: { name: 'Load test', requests_per_minute: 600 },
  });
  expect(key.status).toBe(201);
  for (let i = 1; i <= 52; i++) {
    const res = await fetch(`${server.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: app.uuid,
        messages: [{ role: 'user', content: `Question number ${i}` }],
      }),
    });
    expect(res.status).toBe(200);
  }
  await page.goto(`/applications/${app.uuid}/conversations`);
  const rows = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
  await expect(rows).toHaveCount(50);
  await expect(rows.first().getByText('Question number 52', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(52);
  await expect(rows.last().getByText('Question number 1', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});

test('filters the log cannot read are said so, with a way out', async ({
  page,
  ownerWithApplication,
  allowConsoleError,
}) => {
  allowConsoleError(/status of 400/);
  const { app } = await ownerWithApplication('log-bad', 'Lighthouse');
  await page.goto(`/applications/${app.uuid}/conversations?from=yesterday`);
  await expect(page.getByText('These filters are not valid')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Clear filters' }).first().click();
  await expect(page.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
});
