import type { TAnalytics } from '@cairn/contracts/analytics';
import { ask } from './ask';
import { expect, test } from './fixtures';
import { uploadHandbook } from './handbook';
import { expectNoSidewaysScroll, shoot } from './look';
import { visitorConversation } from './widget-visitor';

const SHOP = 'https://shop.example.com';

test('the analytics page shows the real numbers of a few conversations', async ({
  page,
  api,
  server,
  ownerWithApplication,
  checkA11y,
}) => {
  const { user, app } = await ownerWithApplication('analytics', 'Lighthouse');

  // Nothing yet: the empty state, reached from the application's navigation.
  await page.goto(`/applications/${app.uuid}`);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/${app.uuid}/analytics$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No conversations in these days' })).toBeVisible();
  await expect(page.getByRole('link', { name: '30 days' })).toHaveAttribute('aria-current', 'page');
  await checkA11y();
  await shoot(page, 'analytics-empty');

  // Three questions in chats (two alike), one rated 👍 and one 👎; a widget visitor asks for a person
  // and the owner replies.
  await uploadHandbook(api, user.token, app.uuid);
  const lamp = await ask(api, user, app.uuid, 'When is the lamp cleaned?');
  await ask(api, user, app.uuid, 'When is the lamp cleaned again?');
  const dogs = await ask(api, user, app.uuid, 'Are dogs welcome?');
  for (const [rated, feedback] of [
    [lamp, 'up'],
    [dogs, 'down'],
  ] as const) {
    const res = await api.call(
      'PUT',
      `/api/applications/${app.uuid}/chatrooms/${rated.chatroom}/messages/${rated.answer}/feedback/`,
      { token: user.token, json: { feedback } },
    );
    expect(res.status).toBe(200);
  }
  const widget = await api.call('PATCH', `/api/applications/${app.uuid}/widget/`, {
    token: user.token,
    json: { enabled: true, allowed_origins: [SHOP] },
  });
  expect(widget.status).toBe(200);
  const visit = await visitorConversation(server.url, app.uuid, {
    origin: SHOP,
    pageUrl: `${SHOP}/visits`,
    message: 'Can somebody call me about a group visit?',
    handoff: true,
  });
  const me = await api.call<{ sender_identifier: string }>('GET', '/api/me/', { token: user.token });
  const reply = await api.call('POST', `/api/applications/${app.uuid}/chatrooms/send-message/`, {
    token: user.token,
    json: {
      chatroom_identifier: visit.uuid,
      message: 'Hello! I will call you this afternoon.',
      sender_identifier: me.body.sender_identifier,
      send_to_user: true,
    },
  });
  expect(reply.status).toBe(201);
  // The visitor's answer finishes in the background: wait until all four answers are counted.
  await expect
    .poll(async () => {
      const res = await api.call<TAnalytics>('GET', `/api/applications/${app.uuid}/analytics/`, {
        token: user.token,
      });
      return res.body.totals.answers;
    })
    .toBe(4);

  await page.reload();
  const tile = (label: string) =>
    page
      .locator('dl > div')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd')
      .first();
  await expect(tile('Conversations')).toHaveText('4');
  // Four questions, four answers and the owner's reply.
  await expect(tile('Messages')).toHaveText('9');
  await expect(tile('Visitors')).toHaveText('1');
  await expect(tile('Rated good / bad')).toHaveText('1 / 1');
  await expect(tile('Handoffs answered')).toHaveText('1 / 1');
  // The handbook covers neither dogs nor group visits (the relevance decision, decision 053).
  await expect(tile('Not covered')).toHaveText('2');

  const questions = page.getByRole('region', { name: 'Top questions', exact: true });
  await expect(questions.getByRole('row', { name: /When is the lamp cleaned again\? 2/ })).toBeVisible();
  await expect(questions.getByRole('row', { name: /Are dogs welcome\? 1/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Most cited knowledge', exact: true })).toContainText(
    'handbook',
  );
  await expect(page.getByRole('region', { name: 'Tokens and cost by model', exact: true })).toContainText(
    'Built-in extractive answerer',
  );
  // Each chart says what it shows, and its numbers are there as a table.
  const chart = page.getByRole('img', { name: /^4 conversations and 9 messages from / });
  await expect(chart).toBeVisible();
  // Drawn as SVG (on the server too): a dot on each day with a value while the days are far enough
  // apart (a month, at this width), and the pointer's day read out. Every day of the range has a
  // count (0 before today); only today has a time to the first token, so that chart's two series
  // are a dot each (a day alone between gaps always has its dot: it has no line).
  await expect(chart.locator('circle')).toHaveCount(2 * 30);
  const firstToken = page.getByRole('img', { name: /^Answers started after / });
  await expect(firstToken.locator('circle')).toHaveCount(2);
  const figure = page.getByRole('figure', { name: 'Conversations and messages' });
  const readout = figure.locator('[data-chart-readout]');
  await expect(readout).toHaveCount(0);
  // Today is the last day, at the plot's right edge (22 px inside the chart's).
  const plot = (await chart.boundingBox())!;
  await chart.hover({ position: { x: plot.width - 22, y: plot.height / 2 } });
  await expect(readout).toContainText('Conversations: 4');
  await expect(readout).toContainText('Messages: 9');
  await expect(figure.locator('[data-chart-guide] circle')).toHaveCount(2);
  await shoot(page, 'analytics-readout', { fullPage: false });
  await page.mouse.move(0, 0);
  await expect(readout).toHaveCount(0);
  // Drawn when first opened (decision 105), not with every page.
  await expect(figure.locator('details table')).toHaveCount(0);
  await figure.getByText('Show as a table').click();
  // Today, the last row: 4 conversations, 9 messages.
  await expect(figure.locator('details').getByRole('row').last().getByRole('cell')).toHaveText(['4', '9']);
  await checkA11y();
  await shoot(page, 'analytics');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await checkA11y();
  await shoot(page, 'analytics');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shoot(page, 'analytics');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await shoot(page, 'analytics');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Another range by the picker; a range the API refuses says why.
  // A longer range: 90 days are too close for a dot each; the readout still names any day.
  await page.getByRole('link', { name: '90 days' }).click();
  await expect(page).toHaveURL(/\?days=90$/);
  const quarter = page.getByRole('img', { name: /^4 conversations and 9 messages from / });
  await expect(quarter.locator('circle')).toHaveCount(0);
  const wide = (await quarter.boundingBox())!;
  await quarter.hover({ position: { x: wide.width - 22, y: wide.height / 2 } });
  await expect(figure.locator('[data-chart-readout]')).toContainText('Conversations: 4');
  await page.getByRole('link', { name: '7 days' }).click();
  await expect(page).toHaveURL(/\?days=7$/);
  await expect(page.getByRole('link', { name: '7 days' })).toHaveAttribute('aria-current', 'page');
  await expect(tile('Conversations')).toHaveText('4');
  await page.getByLabel('From', { exact: true }).fill('2026-03-02');
  await page.getByLabel('To', { exact: true }).fill('2026-03-01');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('from: Must not be after to')).toBeVisible();
});
