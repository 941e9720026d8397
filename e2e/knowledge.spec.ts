import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test as base, expect } from './fixtures';
import { serverAllowingPrivateUrls } from './private-urls';
import type { RunningServer } from './server';

const FIXTURES = path.resolve(import.meta.dirname, '../apps/api/src/rag/parse/fixtures');

/**
 * A server that may fetch loopback pages (ALLOW_PRIVATE_URLS=true, as tests need), plus a local
 * "web site" to add as a URL item.
 */
const test = base.extend<{ site: string }, { server: RunningServer }>({
  server: serverAllowingPrivateUrls,
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form
  site: async ({}, use) => {
    const server = http.createServer((req, res) => {
      if (req.url === '/tides') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<!doctype html><html lang="en"><head><title>Mousehole tide table</title></head><body><main>' +
            '<h1>Mousehole tide table</h1><p>High water on Saturday is at 06:42 and again at 19:05.</p>' +
            '<h2>Spring tides</h2><p>Spring tides arrive two days after the full moon and flood the slipway.</p>' +
            '</main></body></html>',
        );
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.close();
  },
});

test.describe('knowledge base', () => {
  test('upload a PDF and add a URL, watch both become ready, find them with test retrieval', async ({
    page,
    api,
    signIn,
    site,
    checkA11y,
  }) => {
    const user = await signIn(await api.newUser('kb'));
    const application = await user.createApplication('Harbour assistant');
    await page.goto(`/applications/${application.uuid}/knowledge-base`);
    await expect(page.getByRole('heading', { level: 1, name: 'Knowledge base' })).toBeVisible();
    await expect(page.getByText('No knowledge yet')).toBeVisible();

    // A file, chosen through the file input (drag and drop lands on the same input).
    await page.locator('input[type="file"]').setInputFiles(path.join(FIXTURES, 'sample.pdf'));
    await expect(page.getByRole('list', { name: 'Chosen files' })).toContainText('sample.pdf');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const items = page.locator('[data-item]');
    await expect(items).toHaveCount(1);

    // Bad input first: the field says what is wrong.
    await page.getByRole('tab', { name: 'URL' }).click();
    await page.getByLabel('Web page address').fill('ftp://example.com/tides');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText('Enter a web address starting with http:// or https://')).toBeVisible();
    await page.getByLabel('Web page address').fill(`${site}/tides`);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(items).toHaveCount(2);

    // Both become ready through `kb_updates` on the socket (no reload).
    await expect(items.nth(0)).toContainText('Orchard Field Guide', { timeout: 30_000 });
    await expect(items.nth(0)).toContainText('Ready', { timeout: 30_000 });
    await expect(items.nth(1)).toContainText('Mousehole tide table', { timeout: 30_000 });
    await expect(items.nth(1)).toContainText('Ready', { timeout: 30_000 });
    // Checked once the "1 item added" toasts are gone: axe would measure them half-transparent.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    await checkA11y();

    // Test retrieval finds each of them.
    const question = page.getByLabel('Question');
    await question.fill('When do spring tides arrive?');
    await page.getByRole('button', { name: 'Search' }).click();
    const passages = page.getByRole('list', { name: 'Retrieved passages' });
    await expect(passages.locator('li').first()).toContainText('Mousehole tide table');
    await expect(passages.locator('li').first()).toContainText('two days after the full moon');
    await question.fill('codling moth pheromone traps');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(passages.locator('li').first()).toContainText('Orchard Field Guide');
    await expect(passages.locator('li').first()).toContainText('Page 2');

    // Preview the PDF's passages.
    await page.getByRole('link', { name: 'Preview Orchard Field Guide' }).click();
    const preview = page.getByRole('dialog');
    await expect(preview).toContainText('Codling moth larvae');
    await page.keyboard.press('Escape');
    await expect(preview).toBeHidden();

    // Delete with confirmation.
    await page.getByRole('button', { name: 'Delete Mousehole tide table' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(items).toHaveCount(1);
    await question.fill('When do spring tides arrive?');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('list', { name: 'Retrieved passages' })).toHaveCount(0);
  });

  test('shows a failure reason a person understands', async ({ page, api, signIn }) => {
    const user = await signIn(await api.newUser('kb-fail'));
    const application = await user.createApplication('Failures');
    await page.goto(`/applications/${application.uuid}/knowledge-base`);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'minutes.pdf',
      mimeType: 'application/pdf',
      buffer: fs.readFileSync(path.join(FIXTURES, 'encrypted.pdf')),
    });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.locator('[data-failure-reason]')).toHaveText(
      'This PDF is encrypted (password-protected). Remove the password and upload it again.',
      { timeout: 30_000 },
    );
  });
  test('the create-application dialog takes knowledge drafts (Text, URL)', async ({
    page,
    api,
    signIn,
    site,
  }) => {
    await signIn(await api.newUser('kb-drafts'));
    await page.goto('/');
    await page.getByRole('button', { name: 'Create application' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Tide bot');
    await dialog.getByRole('button', { name: 'Add text' }).click();
    await dialog
      .getByLabel('Text 1', { exact: true })
      .fill('Slipway rules\n\nBoats must be off the slipway before high water.');
    await dialog.getByRole('button', { name: 'Add URL' }).click();
    await dialog.getByLabel('URL 2', { exact: true }).fill('ftp://example.com/tides');
    await dialog.getByRole('button', { name: 'Create application' }).click();
    // The API names the draft's field; nothing was created.
    await expect(dialog.getByText('Enter a web address starting with http:// or https://')).toBeVisible();
    await dialog.getByLabel('URL 2', { exact: true }).fill(`${site}/tides`);
    await dialog.getByRole('button', { name: 'Create application' }).click();
    await expect(page).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
    await page.goto(`${new URL(page.url()).pathname}/knowledge-base`);
    const items = page.locator('[data-item]');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText('Slipway rules');
    await expect(items.nth(1)).toContainText('Mousehole tide table', { timeout: 30_000 });
    await expect(items.getByText('Ready', { exact: true })).toHaveCount(2, { timeout: 30_000 });
  });
});
