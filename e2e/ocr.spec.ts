import { makeScannedPdf } from '../apps/api/src/testing/make-scan.ts';
import { expect, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

test.describe('scanned documents', () => {
  test('upload a scanned PDF, see "Read with OCR", ask about it in the chat', async ({
    page,
    context,
    server,
    api,
    signIn,
    checkA11y,
  }) => {
    // OCR takes seconds a page on a busy two-core machine.
    test.setTimeout(120_000);
    const user = await signIn(await api.newUser('ocr'));
    const application = await user.createApplication('Island guide');
    const scan = await makeScannedPdf([
      ['Ardmore Island visitor guide. Welcome to the island and its harbour.'],
      [
        'The lighthouse tower is open to visitors from May to October. Tickets cost six pounds at the harbour office.',
      ],
    ]);
    await page.goto(`/applications/${application.uuid}/knowledge-base`);
    await expect(page.getByText(/images \(\.png, \.jpg, \.webp\)/)).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'island-guide.pdf',
      mimeType: 'application/pdf',
      buffer: scan,
    });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const item = page.locator('[data-item]');
    await expect(item).toContainText('Ready', { timeout: 90_000 });
    await expect(item).toContainText('Read with OCR');
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    await checkA11y();
    for (const mode of ['light', 'dark'] as const) {
      await context.addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await page.reload();
        await expect(item).toContainText('Read with OCR');
        await expectNoSidewaysScroll(page);
        await shoot(page, 'knowledge-read-with-ocr');
      }
    }

    await page.goto(`/applications/${application.uuid}/messages/new_chat`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('How much do tickets for the lighthouse tower cost?');
    await box.press('Enter');
    const answer = page.getByRole('listitem', { name: 'Answer' });
    await expect(answer).toContainText('six pounds');
    await answer.getByRole('button', { name: /^Source 1: island-guide/ }).click();
    await expect(page.getByRole('dialog')).toContainText('Page 2');
  });
});
