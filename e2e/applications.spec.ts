import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

const WIDTHS = [1280, 375] as const;
const MODES = ['light', 'dark'] as const;

/** The Overview's "Manage" menu (a labelled button in the page header). */
async function manage(page: Page, name: string, item: 'Rename…' | 'Duplicate…' | 'Delete…') {
  await page.getByRole('button', { name: `Manage ${name}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test.describe('applications', () => {
  test('create, list with counts, rename, duplicate with the knowledge, delete with a confirmation', async ({
    page,
    api,
    signIn,
    checkA11y,
    allowConsoleError,
  }) => {
    // The deleted application's address answers 404 (the browser logs it).
    allowConsoleError(/status of 404/);
    await signIn(await api.newUser('apps'));

    // Create, with a text item, from the onboarding at `/`.
    await page.goto('/');
    await page.getByRole('button', { name: 'Create application' }).click();
    const create = page.getByRole('dialog', { name: 'Create application' });
    await create.getByLabel('Name').fill('Harbour desk');
    await create.getByRole('button', { name: 'Add text' }).click();
    await create
      .getByLabel('Text 1', { exact: true })
      .fill('Slipway\n\nBoats leave the slipway before high water.');
    await create.getByRole('button', { name: 'Create application' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Harbour desk' })).toBeVisible();
    const original = new URL(page.url()).pathname;
    await page.goto(`${original}/knowledge-base`);
    await expect(page.locator('[data-item]').getByText('Ready', { exact: true })).toHaveCount(1, {
      timeout: 30_000,
    });

    // `/` lists the applications with what each holds.
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
    const rows = page
      .getByRole('list', { name: 'Applications' })
      .getByRole('listitem')
      .filter({
        has: page.getByRole('heading', { level: 2 }),
      });
    await expect(rows).toHaveCount(1);
    const row = rows.filter({ hasText: 'Harbour desk' });
    await expect(row).toContainText('1 knowledge item');
    await expect(row).toContainText('0 conversations');
    await expect(row).toContainText('0 API keys');
    await expect(row).toContainText('Widget off');
    await checkA11y();
    await row.getByRole('link', { name: 'Harbour desk' }).click();
    await expect(page).toHaveURL(original);

    // Rename: the name is checked like the API checks it.
    await manage(page, 'Harbour desk', 'Rename…');
    const rename = page.getByRole('dialog', { name: 'Rename application' });
    await expect(rename.getByLabel('Name')).toHaveValue('Harbour desk');
    await rename.getByLabel('Name').fill('   ');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(rename.getByText('Required')).toBeVisible();
    await rename.getByLabel('Name').fill('Harbour guide');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(rename).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Harbour guide' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Application Harbour guide/ }).first()).toBeAttached();

    // Duplicate: settings and knowledge, searchable in the copy at once.
    await manage(page, 'Harbour guide', 'Duplicate…');
    const duplicate = page.getByRole('dialog', { name: 'Duplicate “Harbour guide”' });
    await expect(duplicate).toContainText('Conversations and API keys are not copied');
    await expect(duplicate.getByLabel('Name')).toHaveValue('Harbour guide (copy)');
    await duplicate.getByRole('button', { name: 'Duplicate' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Harbour guide (copy)' })).toBeVisible();
    const copy = new URL(page.url()).pathname;
    expect(copy).not.toBe(original);
    await page.goto(`${copy}/knowledge-base`);
    await expect(page.locator('[data-item]')).toHaveCount(1);
    await expect(page.locator('[data-item]')).toContainText('Ready');

    // The switcher leads to the list too.
    await page
      .getByRole('button', { name: /^Application Harbour guide \(copy\)/ })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'All applications' }).click();
    await expect(page).toHaveURL('/');
    await expect(rows).toHaveCount(2);

    // Delete, from the list: the confirmation names what goes; Cancel keeps it.
    const copyRow = rows.filter({ hasText: 'Harbour guide (copy)' });
    await copyRow.getByRole('button', { name: 'Manage Harbour guide (copy)' }).click();
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete “Harbour guide (copy)”?' });
    await expect(confirm).toContainText(
      'its 1 knowledge item, 0 conversations, 0 API keys and its widget settings',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(rows).toHaveCount(2);

    // From the application's own page.
    await page.goto(copy);
    await manage(page, 'Harbour guide (copy)', 'Delete…');
    await confirm.getByRole('button', { name: 'Delete application' }).click();
    await expect(page).toHaveURL('/');
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('Harbour guide');

    // Its address is now a 404 inside the shell: the sidebar stays (issue 21, item 18).
    const res = await page.goto(copy);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to your applications' })).toBeVisible();
    await checkA11y();
  });

  test('screens at 1280 and 375 px, light and dark', async ({
    page,
    context,
    server,
    api,
    signIn,
    checkA11y,
    allowConsoleError,
  }) => {
    allowConsoleError(/status of 404/);
    const user = await signIn(await api.newUser('apps-look'));
    const app = await user.createApplication('Lighthouse visitor centre and gift shop assistant');
    await user.createApplication('Tide tables');
    for (const mode of MODES) {
      await context.addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto('/');
        await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
        await expectNoSidewaysScroll(page);
        await checkA11y();
        await shoot(page, 'applications');

        await page.goto(`/applications/${app.uuid}`);
        await manage(page, app.name, 'Delete…');
        await expect(page.getByRole('dialog')).toBeVisible();
        await checkA11y();
        await shoot(page, 'application-delete', { fullPage: false });
        await page.keyboard.press('Escape');
        await manage(page, app.name, 'Duplicate…');
        await expect(page.getByRole('dialog')).toBeVisible();
        await shoot(page, 'application-duplicate', { fullPage: false });
        await page.keyboard.press('Escape');

        const res = await page.goto('/applications/00000000-0000-4000-8000-000000000000');
        expect(res?.status()).toBe(404);
        await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
        await expectNoSidewaysScroll(page);
        await checkA11y();
        await shoot(page, 'not-found-signed-in');
      }
    }
  });

  test('a new chat opens ready to type, spelled as its title everywhere', async ({ page, api, signIn }) => {
    const user = await signIn(await api.newUser('apps-chat'));
    const app = await user.createApplication('Ferry desk');
    await page.goto(`/applications/${app.uuid}`);
    // The Overview's button and the sidebar's link say what the page is called.
    await page.getByRole('main').getByRole('link', { name: 'New Chat' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New Chat' })).toBeVisible();
    await expect(page.locator('#chat-message')).toBeFocused();
    // Away and back through the sidebar: focused again.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Ferry desk' })).toBeVisible();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'New Chat', exact: true })
      .click();
    await expect(page.locator('#chat-message')).toBeFocused();
  });
});
