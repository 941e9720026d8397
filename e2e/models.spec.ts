import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { type FakeOpenAI, startFakeOpenAI } from '../apps/api/src/testing/fake-openai-server.ts';
import { test as base, expect } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

const AXE_SOURCE: string = createRequire(import.meta.url)('axe-core').source;

/** axe-core on the page's main content (these screens), failing on serious or critical violations. */
async function checkMainA11y(page: Page) {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    // Runs in the page; typed loosely because the e2e TypeScript project has no DOM library.
    const g = globalThis as unknown as {
      axe: { run: (context: unknown, options: unknown) => Promise<{ violations: any[] }> };
      document: { querySelector(selector: string): unknown };
    };
    const context = g.document.querySelector('[role="dialog"]') ?? g.document.querySelector('main');
    const result = await g.axe.run(context, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n: { target: unknown }) => n.target) }));
  });
  expect(violations).toEqual([]);
}

const KEY = 'sk-e2e-secret-key-QX7W';

/** A local OpenAI-compatible server standing in for LM Studio / vLLM. */
const test = base.extend<{ fake: FakeOpenAI }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form
  fake: async ({}, use) => {
    const fake = await startFakeOpenAI({ apiKey: KEY, models: ['llama3.2:3b', 'nomic-embed-text'] });
    await use(fake);
    await fake.close();
  },
});

test('connect a provider, test it, pick its models and choose them for an application', async ({
  page,
  api,
  signIn,
  fake,
  allowConsoleError,
}) => {
  const user = await signIn(await api.newUser('models'));
  const application = await user.createApplication('Trail guide');

  await page.goto('/settings/models');
  await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No model providers yet' })).toBeVisible();
  await checkMainA11y(page);

  await page.getByRole('button', { name: 'Add provider' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Kind').selectOption('openai_compatible');
  await dialog.getByLabel('Name').fill('Local server');
  await dialog.getByLabel('Base URL').fill('file:///etc/passwd');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog.getByText('Only http:// and https:// URLs are allowed.')).toBeVisible();
  await checkMainA11y(page);
  await dialog.getByLabel('Base URL').fill(fake.url);
  await dialog.getByLabel('API key').fill(KEY);
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByRole('region', { name: 'Local server' });
  await expect(card.getByText('Key ending in QX7W')).toBeVisible();
  expect(await page.content()).not.toContain(KEY);

  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByText('Connected. 2 models available.')).toBeVisible();
  await card.getByRole('button', { name: 'Add llama3.2:3b as text model' }).click();
  await expect(
    card.getByRole('listitem').filter({ hasText: 'llama3.2:3b' }).getByText('Text', { exact: true }),
  ).toBeVisible();
  await card.getByRole('button', { name: 'Add nomic-embed-text as embedding model' }).click();
  await expect(
    card
      .getByRole('listitem')
      .filter({ hasText: 'nomic-embed-text' })
      .getByText('Embedding', { exact: true }),
  ).toBeVisible();
  await checkMainA11y(page);

  // Prices per million tokens of the text model (for the analytics' estimated cost); none on embeddings.
  const prices = card.getByRole('form', { name: 'Prices of llama3.2:3b' });
  const input = prices.getByLabel('Input per 1M tokens');
  await input.fill('-1');
  await prices.getByLabel('Output per 1M tokens').fill('0.6');
  // The browser refuses a negative price before it is sent (the API would too).
  await prices.getByRole('button', { name: 'Save prices' }).click();
  expect(await input.evaluate((el: HTMLInputElement) => el.validity.rangeUnderflow)).toBe(true);
  await expect(prices.getByRole('status')).toHaveCount(0);
  await input.fill('0.15');
  await prices.getByRole('button', { name: 'Save prices' }).click();
  await expect(prices.getByRole('status')).toHaveText('Saved');
  await page.reload();
  await expect(prices.getByLabel('Input per 1M tokens')).toHaveValue('0.15');
  await expect(prices.getByLabel('Output per 1M tokens')).toHaveValue('0.6');
  await expect(card.getByRole('form', { name: 'Prices of nomic-embed-text' })).toHaveCount(0);
  await checkMainA11y(page);
  await shoot(page, 'models-prices');

  // A wrong key: the connection test says so in words.
  await card.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByLabel('API key').fill('sk-wrong-key-0000');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Key ending in 0000')).toBeVisible();
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByText(/rejected the API key \(401\)/)).toBeVisible();

  await page.goto(`/applications/${application.uuid}`);
  await page.getByLabel('Text model').selectOption({ label: 'llama3.2:3b · Local server' });
  await page.getByLabel('Embedding model').selectOption({ label: 'nomic-embed-text · Local server' });
  await page.getByLabel('Instructions').fill('Answer in one sentence.');
  await page.getByText('Knowledge first').click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  // The embedding model is tried before it is saved: with the wrong key it is refused, in words,
  // on its field, and the application keeps searching with the model it had.
  await expect(page.locator('#settings-embedding-model-error')).toHaveText(
    /^The embedding model "nomic-embed-text" did not work: .*rejected the API key \(401\)/,
  );
  await checkMainA11y(page);
  for (const mode of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: mode });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.locator('#settings-embedding-model').scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      await shoot(page, 'application-embedding-refused', { fullPage: false });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/settings/models');
  await card.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByLabel('API key').fill(KEY);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Key ending in QX7W')).toBeVisible();

  await page.goto(`/applications/${application.uuid}`);
  await page.getByLabel('Text model').selectOption({ label: 'llama3.2:3b · Local server' });
  await page.getByLabel('Embedding model').selectOption({ label: 'nomic-embed-text · Local server' });
  await page.getByLabel('Instructions').fill('Answer in one sentence.');
  await page.getByText('Knowledge first').click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await checkMainA11y(page);

  await page.reload();
  await expect(page.getByLabel('Text model')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.getByLabel('Text model').locator('option:checked')).toHaveText(
    'llama3.2:3b · Local server',
  );
  await expect(page.getByLabel('Embedding model').locator('option:checked')).toHaveText(
    'nomic-embed-text · Local server',
  );
  await expect(page.getByLabel('Instructions')).toHaveValue('Answer in one sentence.');
  await expect(page.getByRole('radio', { name: /Knowledge first/ })).toBeChecked();

  // Someone else's (or no) application: not found, like any unknown page.
  allowConsoleError(/status of 404/);
  await page.goto('/applications/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Page Not Found')).toBeVisible();
});
