import { expect, type Page } from '@playwright/test';

/**
 * The widget settings form: its code loads when the page is scrolled near it (decision 091,
 * hweb3), as a person scrolling down gets it. Scrolls its section into view and waits for it.
 */
export async function showWidgetForm(page: Page) {
  await page.getByRole('heading', { name: 'Website widget' }).scrollIntoViewIfNeeded();
  const form = page.getByRole('form', { name: 'Widget settings' });
  await expect(form).toBeVisible();
  return form;
}
