import { gzipSync } from 'node:zlib';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { LOGIN_JS_BUDGET, SIGNED_IN_JS_BUDGET, scriptsOf } from './js-budget';

/** Gzip bytes (level 9) of the scripts the page's HTML references: what a first visit loads. */
async function initialJs(request: APIRequestContext, path: string): Promise<number> {
  const res = await request.get(path);
  expect(res.status(), path).toBe(200);
  let bytes = 0;
  for (const script of scriptsOf(await res.text())) {
    const asset = await request.get(script);
    expect(asset.status(), script).toBe(200);
    bytes += gzipSync(await asset.body(), { level: 9 }).length;
  }
  return bytes;
}

// Sizes, not times: the same build gives the same bytes, so this cannot flake. The web bench
// (`bench/web/web-bench.ts`) prints the same figures, and what Chromium fetched after hydrating.
test('every page stays within its JavaScript budget', async ({
  page,
  ownerWithApplication,
  playwright,
  baseURL,
}) => {
  const signedOut = await playwright.request.newContext({ baseURL });
  expect(await initialJs(signedOut, '/login')).toBeLessThanOrEqual(LOGIN_JS_BUDGET);
  await signedOut.dispose();

  const { app } = await ownerWithApplication('js-budget', 'Budget desk');
  const base = `/applications/${app.uuid}`;
  const pages = [
    '/',
    base,
    `${base}/knowledge-base`,
    `${base}/messages/new_chat`,
    `${base}/conversations`,
    `${base}/attention`,
    `${base}/analytics`,
    `${base}/api-keys-and-widget`,
    '/settings/models',
    '/settings/integrations',
    '/settings/notification-profile',
    '/settings/account',
  ];
  const over: string[] = [];
  for (const path of pages) {
    const bytes = await initialJs(page.request, path);
    if (bytes > SIGNED_IN_JS_BUDGET) over.push(`${path}: ${(bytes / 1024).toFixed(1)} KB`);
  }
  expect(over, `pages over ${SIGNED_IN_JS_BUDGET / 1024} KB of JavaScript (gzip)`).toEqual([]);
});
