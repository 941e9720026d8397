import { type FakeSlack, startFakeSlack } from '../apps/api/src/testing/fake-slack-server';
import { type FakeTelegram, startFakeTelegram } from '../apps/api/src/testing/fake-telegram-server';
import { test as base, expect } from './fixtures';
import { uploadHandbook } from './handbook';
import { expectNoSidewaysScroll, shoot } from './look';
import { type RunningServer, startServer } from './server';

/**
 * Slack and Telegram are third parties we do not run: local servers speak their Web API and Bot
 * API, and this worker's Cairn server is pointed at them (SLACK_API_URL, TELEGRAM_API_URL).
 */
const test = base.extend<
  object,
  { fakes: { slack: FakeSlack; telegram: FakeTelegram }; server: RunningServer }
>({
  fakes: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form
    async ({}, use) => {
      const fakes = { slack: await startFakeSlack(), telegram: await startFakeTelegram() };
      await use(fakes);
      await fakes.slack.close();
      await fakes.telegram.close();
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ fakes }, use) => {
      const server = await startServer({
        SLACK_API_URL: fakes.slack.url,
        TELEGRAM_API_URL: fakes.telegram.url,
      });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

const TELEGRAM_TOKEN = '7012345678:AAFtelegramTokenForTheLighthouseBot';
const SLACK_TOKEN = 'xoxb-1111-2222-lighthouse';
const SLACK_SECRET = 'a'.repeat(16) + 'B'.repeat(16);

test('connect a Telegram bot that answers with sources, connect Slack with its manifest, disconnect', async ({
  page,
  context,
  server,
  fakes,
  api,
  signIn,
  checkA11y,
}) => {
  await context.addCookies([{ name: 'theme', value: 'gray.light', url: server.url }]);
  const user = await signIn(await api.newUser('chat-apps'));
  const app = await user.createApplication('Lighthouse');
  await uploadHandbook(api, user.token, app.uuid);
  fakes.telegram.addBot(TELEGRAM_TOKEN, 'lighthouse_bot');
  fakes.slack.tokens.set(SLACK_TOKEN, { user_id: 'U123', user: 'lighthouse', team: 'Harbour' });

  await page.goto('/settings/integrations');
  const telegram = page.getByRole('region', { name: 'Telegram' });
  await telegram.getByRole('button', { name: 'Connect', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Telegram' });
  // A token Telegram does not know: said on the field, nothing stored.
  await dialog.getByLabel('Bot token').fill('7099999999:AAFnotARealTokenForAnyBotAtAll');
  await dialog.getByRole('button', { name: 'Connect Telegram' }).click();
  await expect(dialog.locator('#connect-telegram-token-error')).toBeVisible();
  await checkA11y();
  await dialog.getByLabel('Bot token').fill(TELEGRAM_TOKEN);
  await dialog.getByRole('button', { name: 'Connect Telegram' }).click();
  const connected = page.getByRole('dialog', { name: /lighthouse_bot is connected/ });
  // PUBLIC_URL is plain http on loopback: Telegram cannot reach it, so Cairn polls, and says so.
  await expect(connected).toContainText(/poll/i);
  await connected.getByRole('button', { name: 'Done' }).click();
  await expect(telegram).toContainText('Connected');
  await expect(telegram).toContainText('Long polling');

  // A person writes to the bot: the answer comes back with its source.
  const since = fakes.telegram.calls.length;
  fakes.telegram.sendText(TELEGRAM_TOKEN, 4242, 'When is the lamp of the lighthouse cleaned?');
  const reply = await fakes.telegram.waitFor('sendMessage', since, 20_000);
  expect(String(reply.params.text)).toContain('cleaned every Tuesday at dawn');
  expect(String(reply.params.text)).toContain('Lighthouse keeper handbook');
  await page.reload();
  await expect(telegram).not.toContainText('None yet');

  // Slack: after connecting, the manifest to paste, with this server's events URL in it.
  const slack = page.getByRole('region', { name: 'Slack' });
  await slack.getByRole('button', { name: 'Connect', exact: true }).click();
  const slackDialog = page.getByRole('dialog', { name: 'Connect Slack' });
  await slackDialog.getByLabel('Bot User OAuth Token').fill(SLACK_TOKEN);
  await slackDialog.getByLabel('Signing Secret').fill('too-short');
  await slackDialog.getByRole('button', { name: 'Connect Slack' }).click();
  await expect(slackDialog.locator('#connect-slack-secret-error')).toContainText(
    '32-character Signing Secret',
  );
  await slackDialog.getByLabel('Signing Secret').fill(SLACK_SECRET);
  await slackDialog.getByRole('button', { name: 'Connect Slack' }).click();
  const slackConnected = page.getByRole('dialog', { name: /is connected/ });
  await expect(slackConnected).toContainText('App Manifest');
  await expect(slackConnected).toContainText(`${server.url}/api/integrations/slack/`);
  await checkA11y();
  await shoot(page, 'chat-apps-slack-manifest', { fullPage: false });
  await slackConnected.getByRole('button', { name: 'Done' }).click();
  await expect(slack).toContainText('Connected');
  await checkA11y();
  await shoot(page, 'chat-apps', { fullPage: false });

  // Disconnect asks first, then the bot is gone.
  await telegram.getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disconnect @lighthouse_bot?' });
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(telegram).toContainText('Not connected.');

  // 375 px, dark: no sideways scrolling.
  await context.addCookies([{ name: 'theme', value: 'gray.dark', url: server.url }]);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(slack).toContainText('Connected');
  await expectNoSidewaysScroll(page);
  await shoot(page, 'chat-apps', { fullPage: false });
  await checkA11y();
});
