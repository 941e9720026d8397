import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { type apiHelpers, expect, type TestUser, test } from './fixtures';
import { shoot } from './look';
import { showWidgetForm } from './widget-form';

interface ListedKey {
  uuid: string;
  name: string;
  prefix: string;
  last_four: string;
}

/** A day in the user's calendar, as the date input takes it. */
const isoDay = (offsetDays: number) => {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const LONG_WORD = 'k'.repeat(100);
const LONG_WORDS = `${'Production ingestion worker for the support team '.repeat(3)}`.slice(0, 100);

test('create a key, see it once, use the examples, delete it', async ({
  page,
  context,
  server,
  api,
  ownerWithApplication,
  checkA11y,
}) => {
  const { user, app } = await ownerWithApplication('keys', 'Trail guide', { theme: 'gray.light' });
  const baseUrl = `${server.url}/api/v1`;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });

  await page.goto(`/applications/${app.uuid}/api-keys-and-widget`);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys & widget' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No API keys yet' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Website widget' })).toBeVisible();
  await showWidgetForm(page);
  await checkA11y();

  // The base URL and the application id, each copyable; examples filled in with both.
  await expect(page.getByText(baseUrl, { exact: true })).toBeVisible();
  await expect(page.getByText(app.uuid, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Copy application id' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(app.uuid);
  // The first tab panel holds the OpenAI examples (the MCP configurations have tabs of their own).
  const examples = page.getByRole('tabpanel').first();
  await expect(examples).toContainText(`curl ${baseUrl}/chat/completions`);
  await expect(examples).toContainText('Authorization: Bearer $CAIRN_API_KEY');
  await expect(examples).toContainText(`"model": "${app.uuid}"`);
  await expect(examples).toContainText('"conversation_id"');
  await page.getByRole('tab', { name: 'JavaScript' }).click();
  await expect(examples).toContainText('new OpenAI({');
  await expect(examples).toContainText(`baseURL: '${baseUrl}'`);
  await expect(examples).toContainText(`model: '${app.uuid}'`);
  await expect(examples).toContainText('stream: true');
  await expect(examples).toContainText('conversation_id: conversationId');
  // Keyboard: arrow keys move between the language tabs.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Python' })).toHaveAttribute('aria-selected', 'true');
  // The last tab wraps to the first; Home and End reach the ends; Tab leaves the list for the panel.
  const tab = (name: string) => page.getByRole('tab', { name, exact: true });
  await page.keyboard.press('ArrowRight');
  await expect(tab('curl')).toBeFocused();
  await expect(tab('curl')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(tab('Python')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tab('curl')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(tab('Python')).toHaveAttribute('aria-selected', 'true');
  await expect(tab('JavaScript')).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('Tab');
  await expect(examples).toBeFocused();
  await expect(examples).toContainText(`base_url="${baseUrl}"`);
  await expect(examples).toContainText('api_key=os.environ["CAIRN_API_KEY"]');
  await expect(examples).toContainText(`model="${app.uuid}"`);
  await expect(examples).toContainText('stream=True');
  await expect(examples).toContainText('extra_body={"conversation_id": conversation_id}');
  await page.getByRole('button', { name: 'Copy the Python example' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`model="${app.uuid}"`);

  // Bad input beside the happy path: each problem on its own field.
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.locator('#api-key-name-error')).toHaveText('Required');
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await dialog.getByLabel('Name').fill('CI pipeline');
  await dialog.getByLabel('Requests per minute').fill('0');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.locator('#api-key-rpm-error')).toHaveText('At least 1');
  await dialog.getByLabel('Requests per minute').fill('10001');
  await expect(dialog.locator('#api-key-rpm-error')).toHaveText('At most 10,000');
  await dialog.getByLabel('Requests per minute').fill('120');
  await dialog.getByLabel('Expires').selectOption({ label: 'On a date…' });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.locator('#api-key-expiry-date-error')).toHaveText('Choose a date');
  await dialog.getByLabel('Expiry date').fill(isoDay(-1));
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.locator('#api-key-expiry-date-error')).toHaveText('Must be in the future');
  await checkA11y();
  await dialog.getByLabel('Expires').selectOption({ label: '90 days' });
  await dialog.getByRole('button', { name: 'Create key' }).click();

  // Shown once: the key, a copy button and the warning.
  const saved = page.getByRole('dialog', { name: 'Save your API key' });
  await expect(saved.getByText('This key will not be shown again')).toBeVisible();
  const key = await saved.getByLabel('Your new API key').inputValue();
  expect(key).toMatch(/^cairn_[0-9A-Za-z]{38}$/);
  await saved.getByRole('button', { name: 'Copy API key' }).click();
  await expect(saved.getByRole('status')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  // The examples (and the rest of the page behind the dialog) never carry the key: they read it
  // from the environment.
  expect(await page.locator('main').textContent()).not.toContain(key);
  await checkA11y();
  await shoot(page, 'api-keys-created', { fullPage: false });
  // A click beside the dialog does not throw the key away; Done does.
  await page.mouse.click(5, 5);
  await expect(saved).toBeVisible();
  await saved.getByRole('button', { name: 'Done' }).click();
  await expect(saved).toBeHidden();
  await expect(page.getByRole('button', { name: 'Create key' })).toBeFocused();

  // Listed by its two ends only, and never shown again, not even after a reload.
  const listed = await api.call<ListedKey[]>('GET', `/api/applications/${app.uuid}/api-keys/`, {
    token: user.token,
  });
  const [only] = listed.body;
  expect(only?.name).toBe('CI pipeline');
  const masked = `${only!.prefix}…${only!.last_four}`;
  expect(key.startsWith(only!.prefix) && key.endsWith(only!.last_four)).toBe(true);
  const row = page.getByRole('listitem', { name: 'CI pipeline' });
  await expect(row.getByText(masked)).toBeVisible();
  await expect(row.getByText('120 / min')).toBeVisible();
  await expect(row.getByText('in 3 months')).toBeVisible();
  await expect(row.getByText('Never')).toBeVisible();
  expect(await page.content()).not.toContain(key);
  await page.reload();
  await expect(page.getByRole('listitem', { name: 'CI pipeline' }).getByText(masked)).toBeVisible();
  expect(await page.content()).not.toContain(key);
  await checkA11y();
  await shoot(page, 'api-keys');

  // Delete asks first; Cancel keeps the key.
  await row.getByRole('button', { name: 'Delete CI pipeline' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete “CI pipeline”?' });
  await expect(confirm).toContainText(masked);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Delete CI pipeline' }).click();
  await confirm.getByRole('button', { name: 'Delete key' }).click();
  await expect(page.getByText('API key “CI pipeline” deleted')).toBeVisible();
  await expect(row).toBeHidden();
  await expect(page.getByRole('heading', { name: 'API keys', exact: true })).toBeFocused();
  await expect(page.getByRole('heading', { name: 'No API keys yet' })).toBeVisible();
  const after = await api.call<ListedKey[]>('GET', `/api/applications/${app.uuid}/api-keys/`, {
    token: user.token,
  });
  expect(after.body).toEqual([]);
});

test('the copied examples run as they are, and their conversations stay out of the sidebar', async ({
  page,
  context,
  server,
  api,
  ownerWithApplication,
}) => {
  const { user, app } = await ownerWithApplication('keys-run', 'Trail guide');
  const key = await createKey(api, user, app.uuid, { name: 'Examples' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.goto(`/applications/${app.uuid}/api-keys-and-widget`);
  const copied = async (name: string) => {
    await page.getByRole('button', { name }).click();
    return page.evaluate(() => navigator.clipboard.readText());
  };
  const env = { ...process.env, CAIRN_API_KEY: key };

  const curl = await copied('Copy the curl example');
  const answer = JSON.parse((await run('bash', ['-c', curl], env)).stdout);
  expect(answer).toMatchObject({ object: 'chat.completion', conversation_id: expect.any(String) });

  await page.getByRole('tab', { name: 'JavaScript' }).click();
  const script = `${await copied('Copy the JavaScript example')}\n${await copied('Copy the JavaScript follow-up example')}`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-example-')), 'example.mjs');
  // Only the package's location changes: the file runs outside this repository's node_modules.
  fs.writeFileSync(file, script.replace("from 'openai'", `from '${import.meta.resolve('openai')}'`));
  const js = await run(process.execPath, [file], env);
  expect(js.stdout.trim()).not.toBe('');

  // curl's conversation is stored as from the API; like the JavaScript one, it is in the
  // conversation log, and the owner's sidebar stays theirs (decision 067).
  const stored = await api.call<{ source: string }>(
    'GET',
    `/api/applications/${app.uuid}/chatrooms/${answer.conversation_id}/messages/`,
    { token: user.token },
  );
  expect(stored.body.source).toBe('api');
  await page.goto(`/applications/${app.uuid}`);
  await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByText('No chats yet.')).toBeVisible();

  // The same in the phone's drawer.
  await context.addCookies([{ name: 'theme', value: 'gray.dark', url: server.url }]);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const drawer = page.getByRole('dialog', { name: 'Navigation' });
  await expect(drawer.getByText('No chats yet.')).toBeVisible();
  await expectFits(page, 375);
  await shoot(page, 'api-chats-sidebar', { fullPage: false });
});

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ stdout: string }>((resolve, reject) => {
    execFile(command, args, { env, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${stderr || error.message}`));
      else resolve({ stdout });
    });
  });
}

async function createKey(
  api: ReturnType<typeof apiHelpers>,
  user: TestUser,
  appId: string,
  body: Record<string, unknown>,
) {
  const res = await api.call<{ key: string }>('POST', `/api/applications/${appId}/api-keys/`, {
    token: user.token,
    json: body,
  });
  expect(res.status).toBe(201);
  return res.body.key;
}

/** Nothing wider than the phone: neither the page nor an open dialog (fixed, so not in scrollWidth). */
async function expectFits(page: Page, width: number) {
  const widest = await page.evaluate(() =>
    Math.max(
      document.documentElement.scrollWidth,
      ...[...document.querySelectorAll('[role="dialog"]')].map((d) =>
        Math.max(d.getBoundingClientRect().right, d.scrollWidth),
      ),
    ),
  );
  expect(widest).toBeLessThanOrEqual(width);
}

test.describe('375 px dark', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('long key names fit a phone screen', async ({ page, api, ownerWithApplication, checkA11y }) => {
    const { user, app } = await ownerWithApplication('keys-phone', 'Trail guide', { theme: 'gray.dark' });
    await createKey(api, user, app.uuid, { name: LONG_WORD });
    await createKey(api, user, app.uuid, {
      name: LONG_WORDS,
      requests_per_minute: 10_000,
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });

    await page.goto(`/applications/${app.uuid}/api-keys-and-widget`);
    await expect(page.getByRole('listitem', { name: LONG_WORD })).toBeVisible();
    await expect(page.getByRole('listitem', { name: LONG_WORDS })).toContainText('10,000 / min');
    await expectFits(page, 375);
    await page.getByRole('tab', { name: 'Python' }).click();
    await expectFits(page, 375);
    await checkA11y();
    await shoot(page, 'api-keys');

    await page
      .getByRole('listitem', { name: LONG_WORD })
      .getByRole('button', { name: /^Delete / })
      .click();
    await expect(page.getByRole('dialog', { name: `Delete “${LONG_WORD}”?` })).toBeVisible();
    await expectFits(page, 375);
    await shoot(page, 'api-keys-delete', { fullPage: false });
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Name').fill(LONG_WORD);
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const saved = page.getByRole('dialog', { name: 'Save your API key' });
    await expect(saved.getByLabel('Your new API key')).toHaveValue(/^cairn_/);
    await expectFits(page, 375);
    await checkA11y();
    await shoot(page, 'api-keys-created', { fullPage: false });
  });
});
