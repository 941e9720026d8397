import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base, expect } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';
import { serverAllowingPrivateUrls } from './private-urls';
import type { RunningServer } from './server';

const PAGES: Record<string, [string, string]> = {
  '/help/berths': ['Visitor berths', 'Visiting yachts moor on the east pontoon, rafted three deep.'],
  '/help/fuel': ['Fuel and water', 'The fuel berth sells diesel from eight until six.'],
  '/help/showers': ['Showers', 'Shower codes are printed on the back of the berthing receipt.'],
};

/**
 * A server that may fetch loopback pages (ALLOW_PRIVATE_URLS=true), and a local harbour web site
 * with a sitemap of three pages.
 */
const test = base.extend<{ site: string }, { server: RunningServer }>({
  server: serverAllowingPrivateUrls,
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form
  site: async ({}, use) => {
    let origin = '';
    const server = http.createServer((req, res) => {
      const page = PAGES[req.url ?? ''];
      if (req.url === '/sitemap.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<urlset>${Object.keys(PAGES)
            .map((p) => `<url><loc>${origin}${p}</loc></url>`)
            .join('')}</urlset>`,
        );
      } else if (page) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><title>${page[0]}</title></head><body><main><h1>${page[0]}</h1><p>${page[1]}</p></main></body></html>`,
        );
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await use(origin);
    server.close();
  },
});

test('import a small site by its sitemap, kept fresh daily: progress, its pages grouped, the check times', async ({
  page,
  context,
  server,
  api,
  signIn,
  site,
  checkA11y,
}) => {
  const user = await signIn(await api.newUser('kb-site'));
  const application = await user.createApplication('Harbour office');
  await page.goto(`/applications/${application.uuid}/knowledge-base`);
  await page.getByRole('tab', { name: 'URL' }).click();
  await page.getByLabel('Web page address').fill(`${site}/sitemap.xml`);
  await page.getByLabel('Linked pages').selectOption({ label: 'It is a sitemap (sitemap.xml)' });
  await expect(page.getByRole('group', { name: 'Which pages' })).toBeVisible();

  // Out of range first: the API's message is shown.
  await page.getByLabel('At most').fill('5000');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('max_pages: A whole number from 1 to 1000')).toBeVisible();
  await page.getByLabel('At most').fill('50');
  await page.getByLabel('Keep it fresh').selectOption({ label: 'Every day' });
  await page.getByRole('button', { name: 'Add', exact: true }).click();

  const root = page.locator('[data-item]').first();
  await expect(root.locator('[data-site-progress]')).toHaveText(
    /3 found\s*3 fetched\s*3 indexed\s*0 failed/,
    {
      timeout: 30_000,
    },
  );
  await expect(root.locator('[data-freshness]').first()).toContainText('next check in a day');
  // The schedule changes from the row (PATCH): a week from now.
  await root
    .getByLabel(/^Keep .* fresh$/)
    .first()
    .selectOption({ label: 'Every week' });
  await expect(root.locator('[data-freshness]').first()).toContainText('next check in 7 days');
  // Only the root at the top level; its pages fold under it.
  await expect(page.locator('[data-item]:visible')).toHaveCount(1);
  await root.getByText('3 pages').click();
  for (const [title] of Object.values(PAGES))
    await expect(root.getByText(title, { exact: true })).toBeVisible();
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);

  for (const mode of ['light', 'dark'] as const) {
    await context.addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
    await page.reload();
    await page.locator('[data-item]').first().getByText('3 pages').click();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSidewaysScroll(page);
      await checkA11y();
      await shoot(page, 'knowledge-site-import');
    }
  }

  // The add form's site options, looked at too.
  await page.getByRole('tab', { name: 'URL' }).click();
  await page.getByLabel('Linked pages').selectOption({ label: 'Import the whole site' });
  await page.getByLabel('Keep it fresh').selectOption({ label: 'Every week' });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await shoot(page, 'knowledge-site-options');
  }

  // Test retrieval finds a page of the site.
  await page.getByLabel('Question').fill('When does the fuel berth sell diesel?');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('list', { name: 'Retrieved passages' }).locator('li').first()).toContainText(
    'Fuel and water',
  );
});
