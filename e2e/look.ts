import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** Where screenshots go (git-ignored), for a person to look at. */
const OUT = path.resolve(import.meta.dirname, 'screenshots');

/**
 * Saves `<name>-<width>-<mode>.png`. The mode is the app's theme or, where that follows the system
 * or the page is not ours (a customer's site with the widget), the browser's colour scheme.
 * `fullPage: false` for overlays (drawer, dialog, menu): they are fixed to the viewport, and a
 * full-page capture would cut them.
 */
export async function shoot(page: Page, name: string, { fullPage = true } = {}) {
  await page.evaluate(() => document.fonts.ready);
  // The header is sticky: scrolled, a full-page capture would paint it mid-page.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  const width = page.viewportSize()?.width;
  const theme = await page.locator('html').getAttribute('data-mode');
  const mode =
    theme === 'light' || theme === 'dark'
      ? theme
      : await page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  fs.mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: path.join(OUT, `${name}-${width}-${mode}.png`), fullPage });
}

/** The page is no wider than the viewport (no sideways scrolling). */
export async function expectNoSidewaysScroll(page: Page) {
  const [scroll, inner] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  expect(scroll, 'page wider than the viewport').toBeLessThanOrEqual(inner!);
}
