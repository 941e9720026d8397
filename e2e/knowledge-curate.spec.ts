import { expect, type TestUser, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

/** Two items: a short tide table, and a long manual of many passages under headings. */
const TIDES =
  '# Mousehole tides\n\nSpring tides arrive **two days** after the full moon and flood the slipway.';
const MANUAL = Array.from(
  { length: 30 },
  (_, part) =>
    `## Part ${part + 1}\n\n${Array.from(
      { length: 30 },
      (_, step) => `Step ${part + 1}.${step + 1}: oil hinge ${step + 1} of the lighthouse lamp.`,
    ).join(' ')}`,
).join('\n\n');

async function applicationWithKnowledge(
  api: { call: <T>(m: string, p: string, o?: object) => Promise<{ status: number; body: T }> },
  user: TestUser,
) {
  const application = await user.createApplication('Harbour curator');
  const form = new FormData();
  [
    ['Tides', TIDES],
    ['Lamp manual', MANUAL],
  ].forEach(([title, value], i) => {
    form.append(`items[${i}].type`, 'text');
    form.append(`items[${i}].title`, title!);
    form.append(`items[${i}].value`, value!);
  });
  const base = `/api/applications/${application.uuid}/knowledge/`;
  expect((await api.call('POST', base, { token: user.token, form })).status).toBe(201);
  await expect
    .poll(
      async () =>
        (await api.call<Array<{ status: string }>>('GET', base, { token: user.token })).body.every(
          (item) => item.status === 'ready',
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
  return application;
}

test.describe('curating knowledge', () => {
  test('switch an item off and see the retrieval test stop finding it, then on again', async ({
    page,
    api,
    signIn,
    checkA11y,
  }) => {
    const user = await signIn(await api.newUser('curate'));
    const application = await applicationWithKnowledge(api, user);
    await page.goto(`/applications/${application.uuid}/knowledge-base`);

    const question = page.getByLabel('Question');
    const passages = page.getByRole('list', { name: 'Retrieved passages' });
    const ask = async (text: string) => {
      await question.fill(text);
      await page.getByRole('button', { name: 'Search' }).click();
    };
    await ask('When do spring tides arrive?');
    await expect(page.getByRole('status').filter({ hasText: 'Would be answered' })).toBeVisible();
    const first = passages.locator('li').first();
    await expect(first).toContainText('Tides');
    await expect(first).toContainText('Used');
    await expect(first).toContainText(/Relevance \d+ of 100/);
    // Markdown is rendered: a heading and bold text, not `#` and `**`.
    await expect(first.getByRole('heading', { name: 'Mousehole tides' })).toBeVisible();
    await expect(first.locator('strong')).toHaveText('two days');
    await expect(first).not.toContainText('**');

    // Off: the row says so, a toast offers Undo, the retrieval test no longer finds it.
    const toggle = page.getByRole('switch', { name: 'Use Tides in answers' });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    const row = page.locator('[data-item]').filter({ hasText: 'Tides' });
    await expect(row.getByText('Off', { exact: true })).toBeVisible();
    await expect(page.locator('[data-sonner-toast]')).toContainText('“Tides” is off');
    await ask('When do spring tides arrive?');
    await expect(page.getByRole('status').filter({ hasText: 'Would be declined' })).toContainText(
      'the knowledge does not cover',
    );
    await expect(passages.filter({ hasText: 'Mousehole' })).toHaveCount(0);

    // Undo from the toast: on again, found again, nothing re-indexed.
    await page.locator('[data-sonner-toast]').getByRole('button', { name: 'Undo' }).click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(row.getByText('Off', { exact: true })).toHaveCount(0);
    await ask('When do spring tides arrive?');
    await expect(passages.locator('li').first()).toContainText('Tides');
    await expect(page.getByRole('status').filter({ hasText: 'Would be answered' })).toBeVisible();

    // Switched with the keyboard too.
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    // Toasts wait while the pointer rests on them (it clicked Undo there).
    await page.mouse.move(0, 0);
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
    await checkA11y();
  });

  test('the item dialog lists every passage with its heading, a page at a time', async ({
    page,
    api,
    signIn,
    checkA11y,
  }) => {
    const user = await signIn(await api.newUser('chunks'));
    const application = await applicationWithKnowledge(api, user);
    await page.goto(`/applications/${application.uuid}/knowledge-base`);
    await page.getByRole('link', { name: 'Preview Lamp manual' }).click();
    const dialog = page.getByRole('dialog');
    const listed = dialog.getByRole('list', { name: 'Passages' }).locator(':scope > li');
    await expect(listed.first()).toContainText('Part 1');
    const shown = await listed.count();
    expect(shown).toBe(20);
    await dialog.getByRole('button', { name: /Load more/ }).click();
    await expect.poll(() => listed.count()).toBeGreaterThan(shown);
    await expect(listed.nth(shown)).toContainText(`#${shown + 1}`);
    // Switched off from its own page: the dialog says so.
    await dialog.getByRole('switch', { name: 'Use Lamp manual in answers' }).click();
    await expect(dialog.getByText('Off: search and answers leave this item out.')).toBeVisible();
    await checkA11y();
  });

  for (const width of [1280, 375]) {
    for (const mode of ['light', 'dark'] as const) {
      test(`looks right at ${width} px, ${mode}`, async ({ page, api, signIn, context, server }) => {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
        await context.addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
        const user = await signIn(await api.newUser('curate-look'));
        const application = await applicationWithKnowledge(api, user);
        await page.goto(`/applications/${application.uuid}/knowledge-base`);
        await page.getByRole('switch', { name: 'Use Lamp manual in answers' }).click();
        await expect(page.locator('[data-item]').getByText('Off', { exact: true })).toBeVisible();
        await page.getByLabel('Question').fill('When do spring tides arrive?');
        await page.getByRole('button', { name: 'Search' }).click();
        await expect(page.getByRole('list', { name: 'Retrieved passages' })).toBeVisible();
        await expectNoSidewaysScroll(page);
        await shoot(page, 'knowledge-curate');
        await page.getByLabel('Question').fill('Which varnish protects the lamp?');
        await page.getByRole('button', { name: 'Search' }).click();
        await expect(page.getByText('Would be declined')).toBeVisible();
        await page.getByText('Would be declined').scrollIntoViewIfNeeded();
        await shoot(page, 'knowledge-curate-declined', { fullPage: false });
        const tides = await page
          .locator('[data-item]')
          .filter({ hasText: 'Tides' })
          .getAttribute('data-item');
        await page.goto(`/applications/${application.uuid}/knowledge-base?preview=${tides}`);
        await expect(page.getByRole('dialog').getByRole('list', { name: 'Passages' })).toBeVisible();
        await expectNoSidewaysScroll(page);
        await shoot(page, 'knowledge-curate-passages', { fullPage: false });
      });
    }
  }
});
