import { Webhook } from 'standardwebhooks';
import { startReceiver } from '../apps/api/src/testing/webhook-receiver';
import { test as base, expect } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';
import { serverAllowingPrivateUrls } from './private-urls';
import type { RunningServer } from './server';

/**
 * Webhooks reach a receiver on this machine, which the SSRF guard allows only with
 * ALLOW_PRIVATE_URLS: these tests get their own server started with it.
 */
const test = base.extend<object, { server: RunningServer }>({ server: serverAllowingPrivateUrls });

test('add a webhook, see its secret once, send a test and find it in the delivery log', async ({
  page,
  context,
  server,
  api,
  signIn,
  checkA11y,
}) => {
  await context.addCookies([{ name: 'theme', value: 'gray.light', url: server.url }]);
  const user = await signIn(await api.newUser('hooks'));
  await user.createApplication('Help desk');
  const receiver = await startReceiver();
  receiver.script.push({ status: 200, body: '{"received":true}' });
  try {
    await page.goto('/settings/integrations');
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No webhooks yet' })).toBeVisible();
    await expect(page.getByText('Not connected.')).toHaveCount(2);
    await checkA11y();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    // Bad input first: the form says what is wrong, on the fields, before anything is sent.
    await dialog.getByLabel('Endpoint URL').fill('ftp://example.com/hook');
    await dialog.getByLabel('message.created').uncheck();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect(dialog.getByText('Must start with https:// or http://')).toBeVisible();
    await expect(dialog.getByText('Choose at least one event')).toBeVisible();

    await dialog.getByLabel('Endpoint URL').fill(`${receiver.url}/cairn`);
    await dialog.getByLabel('message.created').check();
    await dialog.getByLabel('feedback.created').check();
    await dialog.getByLabel('Application').selectOption({ label: 'Help desk' });
    await dialog.getByLabel('Description (optional)').fill('Ticketing sync');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Save your signing secret' });
    await expect(secretDialog).toBeVisible();
    const secret = await secretDialog.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    await checkA11y();
    await shoot(page, 'integrations-created', { fullPage: false });
    await secretDialog.getByRole('button', { name: 'Done' }).click();

    const card = page.getByRole('listitem').filter({ hasText: `${receiver.url}/cairn` });
    await expect(card).toContainText('Active');
    await expect(card).toContainText('Help desk');
    await expect(card).toContainText('Ticketing sync');
    await expect(card).toContainText('None yet');
    // The secret is nowhere on the page any more.
    await expect(page.getByText(secret)).toHaveCount(0);

    await card.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByText('Test sent')).toBeVisible();
    await expect.poll(() => receiver.received.length).toBe(1);
    const [delivery] = receiver.received;
    const payload = new Webhook(secret).verify(delivery!.body, delivery!.headers) as { type: string };
    expect(payload.type).toBe('webhook.ping');
    // The toast fades out under the dialog opened next; axe would measure it half-transparent.
    await expect(page.getByText('Test sent')).toBeHidden();

    await card.getByRole('link', { name: /Delivery log/ }).click();
    const log = page.getByRole('dialog', { name: 'Delivery log' });
    await expect(log.getByText('Succeeded')).toBeVisible();
    await log.getByText('webhook.ping', { exact: true }).click();
    await expect(log.getByText('Attempt 1')).toBeVisible();
    await expect(log.getByText('HTTP 200', { exact: true })).toBeVisible();
    await expect(log.getByText('{"received":true}')).toBeVisible();
    await expect(log).toContainText(delivery!.headers['webhook-id']!);
    await checkA11y();
    await shoot(page, 'integrations-log', { fullPage: false });
    await page.keyboard.press('Escape');
    await expect(log).toBeHidden();
    await expect(page).toHaveURL(/\/settings\/integrations$/);

    await page.reload();
    await expect(card).toContainText('Succeeded (200)');
    await shoot(page, 'integrations');

    // Rotate: a new secret, shown once; both sign for a day.
    await card.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'Save the new signing secret' });
    const newSecret = await rotated.getByRole('textbox', { name: 'New signing secret' }).inputValue();
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await expect(card).toContainText('Rotated; the old one signs until');

    // Delete, confirmed.
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await expect(page.getByText('Webhook deleted')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No webhooks yet' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Webhooks', exact: true })).toBeFocused();
  } finally {
    await receiver.close();
  }
});

test.describe('on a phone, dark', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the delivery log shows a failed attempt and its retry, without sideways scrolling', async ({
    page,
    context,
    server,
    api,
    signIn,
    checkA11y,
  }) => {
    await context.addCookies([{ name: 'theme', value: 'gray.dark', url: server.url }]);
    const user = await signIn(await api.newUser('hooks-phone'));
    const receiver = await startReceiver();
    receiver.script.push({ status: 503, body: '{"error":"not ready"}' });
    try {
      const created = await api.call<{ uuid: string }>('POST', '/api/webhooks/', {
        token: user.token,
        json: {
          url: `${receiver.url}/a/rather/long/path/to/the/receiver/that/must/wrap`,
          events: ['message.created', 'conversation.created', 'knowledge.item.failed'],
          description: 'Alerts',
        },
      });
      expect(created.status).toBe(201);
      await api.call('POST', `/api/webhooks/${created.body.uuid}/test/`, { token: user.token });
      // Retried 5 s later by the real schedule; succeeds then.
      await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);

      await page.goto('/settings/integrations');
      const card = page.getByRole('listitem').filter({ hasText: 'Alerts' });
      await expect(card).toContainText('Succeeded (200)');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await checkA11y();
      await shoot(page, 'integrations');

      await card.getByRole('link', { name: /Delivery log/ }).click();
      const log = page.getByRole('dialog', { name: 'Delivery log' });
      await log.getByText('webhook.ping', { exact: true }).click();
      await expect(log.getByText('HTTP 503', { exact: true })).toBeVisible();
      await expect(log.getByText('HTTP 503 Service Unavailable')).toBeVisible();
      await expect(log.getByText('Attempt 2')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await checkA11y();
      await shoot(page, 'integrations-log', { fullPage: false });

      await log.getByRole('button', { name: 'Send again' }).click();
      await expect(page.getByText('Sending again')).toBeVisible();
      await expect.poll(() => receiver.received.length).toBe(3);
      expect(receiver.received[2]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
      await expect(log.getByText('Attempt 3')).toBeVisible();
    } finally {
      await receiver.close();
    }
  });
});

test('the card shows the last attempt and why it failed, without a reload', async ({
  page,
  context,
  server,
  api,
  signIn,
  checkA11y,
}) => {
  const user = await signIn(await api.newUser('hooks-failing'));
  const receiver = await startReceiver();
  // Every attempt gets 503 (the retries too, while the test looks).
  for (let i = 0; i < 10; i++) receiver.script.push({ status: 503, body: '{"error":"not ready"}' });
  try {
    const created = await api.call<{ uuid: string }>('POST', '/api/webhooks/', {
      token: user.token,
      json: { url: `${receiver.url}/hook`, events: ['message.created'], description: 'Ticketing' },
    });
    expect(created.status).toBe(201);
    await context.addCookies([{ name: 'theme', value: 'gray.light', url: server.url }]);
    await page.goto('/settings/integrations');
    const card = page.getByRole('listitem').filter({ hasText: 'Ticketing' });
    await expect(card.getByRole('definition').filter({ hasText: 'None yet' })).toBeVisible();
    await card.getByRole('button', { name: 'Send test' }).click();
    // The attempt happens in the background: the card catches up by itself.
    await expect(card).toContainText(/Failed \(503\), .*ago/);
    await expect(card.getByText('HTTP 503 Service Unavailable')).toBeVisible();
    await expect(page.getByText('Test sent')).toBeHidden();
    await checkA11y();

    for (const mode of ['light', 'dark'] as const) {
      await context.addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await page.reload();
        await expect(card.getByText('HTTP 503 Service Unavailable')).toBeVisible();
        await expectNoSidewaysScroll(page);
        await checkA11y();
        await shoot(page, 'integrations-failing');
      }
    }
  } finally {
    await receiver.close();
  }
});
