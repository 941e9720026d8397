import { expect, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

const ANSWER = 'Ring the harbour office on 01736 731 511.\nThe night warden answers after 18:00.';

test('add a Q&A pair, edit it in place, and the chat answers with the owner’s words', async ({
  page,
  context,
  server,
  api,
  signIn,
  checkA11y,
}) => {
  const user = await signIn(await api.newUser('qa'));
  const application = await user.createApplication('Harbour desk');
  await page.goto(`/applications/${application.uuid}/knowledge-base`);

  await page.getByRole('button', { name: 'Add Q&A' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a Q&A pair' });
  await dialog.getByRole('button', { name: 'Add Q&A pair' }).click();
  await expect(dialog.getByText('Required')).toHaveCount(2);
  await dialog.getByRole('textbox', { name: 'Question' }).fill('How do I reach the harbour master?');
  await dialog.getByRole('textbox', { name: 'Answer' }).fill('Call the office.');
  await dialog.getByRole('textbox', { name: 'Other phrasings' }).fill('harbour master phone number');
  await dialog.getByRole('button', { name: 'Add Q&A pair' }).click();
  await expect(dialog).toBeHidden();

  const row = page.locator('li[data-item]').filter({ hasText: 'How do I reach the harbour master?' });
  await expect(row).toContainText('Ready', { timeout: 30_000 });
  await expect(row).toContainText('Also asked as: harbour master phone number');

  // Edit in place: the new answer is indexed again and shown in the row.
  await row.getByRole('button', { name: 'Edit How do I reach the harbour master?' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Q&A pair' });
  await expect(edit.getByRole('textbox', { name: 'Answer' })).toHaveValue('Call the office.');
  await edit.getByRole('textbox', { name: 'Answer' }).fill(ANSWER);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row.locator('[data-qa-answer]')).toHaveText(ANSWER);
  await expect(row).toContainText('Ready', { timeout: 30_000 });
  // Checked once the "saved" toasts are gone: axe would measure them half-transparent.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await checkA11y();

  for (const mode of ['light', 'dark'] as const) {
    await context.addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(row).toContainText('Ready');
      await expectNoSidewaysScroll(page);
      await shoot(page, 'knowledge-qa');
      await page.getByRole('button', { name: 'Import Q&A (CSV)' }).click();
      await expect(page.getByRole('dialog', { name: 'Import Q&A pairs' })).toBeVisible();
      await shoot(page, 'knowledge-qa-import', { fullPage: false });
      await page.keyboard.press('Escape');
      await row.getByRole('button', { name: /^Edit / }).click();
      await expect(page.getByRole('dialog', { name: 'Edit Q&A pair' })).toBeVisible();
      await shoot(page, 'knowledge-qa-edit', { fullPage: false });
      await checkA11y();
      await page.keyboard.press('Escape');
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto(`/applications/${application.uuid}/messages/new_chat`);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('What is the harbour master phone number?');
  await box.press('Enter');
  const answer = page.getByRole('listitem', { name: 'Answer' });
  await expect(answer).toContainText('The night warden answers after 18:00.', { timeout: 30_000 });
  await expect(answer).toContainText('Ring the harbour office on 01736 731 511.');
  // Given as written (no inline [n] the built-in answerer would add), cited as the pair.
  await expect(answer.getByRole('button', { name: /^Source 1:/ })).toHaveCount(0);
  await expect(answer.getByRole('button', { name: /How do I reach the harbour master\?/ })).toBeVisible();
});

test('import Q&A pairs from a CSV; a bad row imports nothing and is named', async ({ page, api, signIn }) => {
  const user = await signIn(await api.newUser('qa-csv'));
  const application = await user.createApplication('Ferry desk');
  await page.goto(`/applications/${application.uuid}/knowledge-base`);
  await page.getByRole('button', { name: 'Import Q&A (CSV)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Q&A pairs' });
  const file = dialog.getByLabel('CSV file');
  await file.setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('question,answer\nWhen does the ferry leave?,At ten.\nIs there a café?,\n'),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.locator('[data-form-error]')).toContainText('row 3: answer: Required');
  await file.setInputFiles({
    name: 'pairs.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('When does the ferry leave?,At ten.\nIs there a café?,"Yes, on deck 2."\n'),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('2 Q&A pairs imported')).toBeVisible();
  const rows = page.locator('li[data-item]');
  await expect(rows).toHaveCount(2);
  await expect(rows.getByText('Ready', { exact: true })).toHaveCount(2, { timeout: 30_000 });
});
