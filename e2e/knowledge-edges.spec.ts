import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

const FIXTURES = path.resolve(import.meta.dirname, '../apps/api/src/rag/parse/fixtures');
const WIDTHS = [1280, 375] as const;
const MODES = ['light', 'dark'] as const;
const LONG_TITLE = 'Harbour master’s standing orders for visiting yachts';

/** Issue 21: items 4, 5, 15 and 17 (the knowledge page and the Overview's indexing card). */
test.describe('knowledge rough edges', () => {
  test('the create dialog takes dropped files (.html too) in the knowledge page’s drop zone', async ({
    page,
    api,
    signIn,
    checkA11y,
  }) => {
    await signIn(await api.newUser('kb-create'));
    await page.goto('/');
    await page.getByRole('button', { name: 'Create application' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create application' });
    await dialog.getByLabel('Name').fill('Harbour office');
    const zone = dialog.locator('input[type="file"][multiple]');
    // Several at once; a type the API does not take is named and left out.
    await zone.setInputFiles([
      {
        name: 'orders.html',
        mimeType: 'text/html',
        buffer: fs.readFileSync(path.join(FIXTURES, 'sample.html')),
      },
      {
        name: 'notes.md',
        mimeType: 'text/markdown',
        buffer: fs.readFileSync(path.join(FIXTURES, 'sample.md')),
      },
      {
        name: 'animation.gif',
        mimeType: 'image/gif',
        buffer: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
      },
    ]);
    await expect(dialog.getByText('Not a supported file: animation.gif.')).toBeVisible();
    const chosen = dialog.getByRole('list', { name: 'Chosen files' });
    await expect(chosen.getByRole('listitem')).toHaveCount(2);
    await dialog.getByRole('button', { name: 'Add text' }).click();
    await dialog.getByLabel('Text 1', { exact: true }).fill('Berths\n\nVisitors moor on the east pontoon.');
    // The mode follows the system here, so the open dialog can be looked at in both.
    for (const colorScheme of MODES) {
      await page.emulateMedia({ colorScheme });
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await expectNoSidewaysScroll(page);
        await checkA11y();
        await shoot(page, 'create-application-files', { fullPage: false });
      }
    }
    await dialog.getByRole('button', { name: 'Create application' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Harbour office' })).toBeVisible();

    await page.goto(`${new URL(page.url()).pathname}/knowledge-base`);
    const items = page.locator('[data-item]');
    await expect(items).toHaveCount(3);
    await expect(items.getByText('Ready', { exact: true })).toHaveCount(3, { timeout: 30_000 });
    await expect(items.nth(1)).toContainText('orders.html');
  });

  test('failures stay on the Overview; no re-sync for a corrupt file; added items shown; a menu at 375 px', async ({
    page,
    context,
    server,
    api,
    signIn,
    checkA11y,
  }) => {
    const user = await signIn(await api.newUser('kb-edges'));
    const app = await user.createApplication('Harbour office');
    const base = `/applications/${app.uuid}`;
    await page.goto(`${base}/knowledge-base`);
    await page.locator('input[type="file"]').setInputFiles([
      {
        name: 'broken.pdf',
        mimeType: 'application/pdf',
        buffer: fs.readFileSync(path.join(FIXTURES, 'corrupt.pdf')),
      },
      {
        name: `${LONG_TITLE}.html`,
        mimeType: 'text/html',
        buffer: Buffer.from('<p>Visiting yachts call on channel 12.</p>'),
      },
    ]);
    await page.getByRole('button', { name: 'Add 2 files' }).click();
    // Said, not only appended below the fold.
    await expect(page.getByText('2 items added')).toBeVisible();
    const broken = page.locator('[data-item]').filter({ hasText: 'broken.pdf' });
    const page2 = page.locator('[data-item]').filter({ hasText: LONG_TITLE });
    await expect(broken).toContainText('corrupt or incomplete', { timeout: 30_000 });
    await expect(page2).toContainText('Ready', { timeout: 30_000 });
    // The same bytes fail the same way: no Re-sync for the corrupt file; Delete stays.
    await expect(broken.getByRole('button', { name: 'Re-sync broken.pdf' })).toHaveCount(0);
    await expect(broken.getByRole('button', { name: 'Delete broken.pdf' })).toBeVisible();
    await expect(page2.getByRole('button', { name: `Re-sync ${LONG_TITLE}` })).toBeVisible();

    // The Overview keeps the failure, its reason and a link to it once indexing has ended.
    await page.goto(base);
    const card = page.locator('[data-knowledge-progress]');
    await expect(card).toContainText('Knowledge: 1 of 2 ready, 1 failed');
    const failures = card.getByRole('list', { name: 'Failed knowledge items' });
    await expect(failures).toContainText('corrupt or incomplete');
    await failures.getByRole('link', { name: 'broken.pdf' }).click();
    await expect(page).toHaveURL(new RegExp(`${base}/knowledge-base#item-`));
    await expect(broken).toBeInViewport();

    for (const mode of MODES) {
      await context.addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`${base}/knowledge-base`);
        await expect(page2).toBeVisible();
        await expectNoSidewaysScroll(page);
        await checkA11y();
        await shoot(page, 'knowledge-base-failure');
        await page.goto(base);
        await expect(card).toBeVisible();
        await checkA11y();
        await shoot(page, 'overview-failure');
      }
    }

    // At 375 px the actions are one menu, so the title keeps most of the row.
    await page.goto(`${base}/knowledge-base`);
    await expect(page2.getByRole('button', { name: `Delete ${LONG_TITLE}` })).toBeHidden();
    const title = page2.getByTitle(LONG_TITLE);
    expect((await title.boundingBox())!.width).toBeGreaterThan(180);
    await page2.getByRole('button', { name: `Actions for ${LONG_TITLE}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Preview' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Re-sync' })).toBeVisible();
    await shoot(page, 'knowledge-item-menu', { fullPage: false });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page2).toHaveCount(0);
  });
});
