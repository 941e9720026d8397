import { ask } from './ask';
import { type apiHelpers, expect, type TestUser, test } from './fixtures';
import { uploadHandbook } from './handbook';
import { expectNoSidewaysScroll, shoot } from './look';
import { visitorConversation } from './widget-visitor';

const SHOP = 'https://shop.example.com';

type Api = ReturnType<typeof apiHelpers>;

/** A widget visitor on the shop asks for a person (as the widget does). */
async function visitorWaiting(api: Api, user: TestUser, baseUrl: string, appId: string) {
  const widget = await api.call('PATCH', `/api/applications/${appId}/widget/`, {
    token: user.token,
    json: { enabled: true, allowed_origins: [SHOP] },
  });
  expect(widget.status).toBe(200);
  await visitorConversation(baseUrl, appId, {
    origin: SHOP,
    pageUrl: `${SHOP}/visits/groups-and-schools-with-a-rather-long-address?ref=newsletter`,
    message: 'Can somebody call me about a group visit to the lighthouse next week?',
    handoff: true,
  });
}

test('the owner sees what needs attention and turns an unanswered question into knowledge', async ({
  page,
  api,
  server,
  ownerWithApplication,
  checkA11y,
}) => {
  const { user, app } = await ownerWithApplication('attention', 'Lighthouse');

  // Empty: a helpful empty state, reachable from the sidebar without a count.
  await page.goto(`/applications/${app.uuid}`);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await sidebar.getByRole('link', { name: 'Needs attention' }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/${app.uuid}/attention$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Needs attention' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nothing needs you right now' })).toBeVisible();
  await checkA11y();

  await uploadHandbook(api, user.token, app.uuid);
  await ask(api, user, app.uuid, 'Do you sell gift vouchers?');
  await ask(api, user, app.uuid, 'Do you sell gift vouchers online??');
  await ask(api, user, app.uuid, 'Are dogs welcome?');
  const rated = await ask(api, user, app.uuid, 'When is the lamp cleaned?');
  const down = await api.call(
    'PUT',
    `/api/applications/${app.uuid}/chatrooms/${rated.chatroom}/messages/${rated.answer}/feedback/`,
    { token: user.token, json: { feedback: 'down' } },
  );
  expect(down.status).toBe(200);
  await visitorWaiting(api, user, server.url, app.uuid);

  await page.reload();
  // One waiting visitor, three groups of unanswered questions (the handbook does not cover the
  // visitor's question either: the relevance decision, decision 053) and one bad answer: the badge
  // counts all that the page lists.
  await expect(sidebar.getByRole('link', { name: 'Needs attention 5 items' })).toBeVisible();
  const waiting = page.getByRole('list', { name: 'Waiting for a person' });
  await expect(waiting.getByRole('link')).toHaveText(/^Can somebody call me about a group visit/);
  await expect(waiting).toContainText(/Waiting (less than a minute|1 min)/);
  const unanswered = page.getByRole('list', { name: 'Unanswered questions' });
  const vouchers = unanswered.getByRole('listitem', { name: 'Do you sell gift vouchers?' });
  await expect(vouchers).toContainText('Asked 2 times');
  // Its conversations are named by when it was asked there, not by their first question.
  await expect(vouchers.getByRole('list', { name: 'Conversations' }).getByRole('link')).toHaveText([
    /^Conversation, asked (a few seconds|a minute) ago$/,
    /^Conversation, asked (a few seconds|a minute) ago$/,
  ]);
  await expect(unanswered.getByRole('listitem', { name: 'Are dogs welcome?' })).toContainText('Asked once');
  const feedback = page.getByRole('list', { name: 'Bad answers' });
  await expect(feedback.getByRole('listitem')).toHaveCount(1);
  await expect(feedback).toContainText('When is the lamp cleaned?');
  await expect(feedback).toContainText('cleaned every Tuesday at dawn');
  await checkA11y();
  await shoot(page, 'attention');

  // Phone width, dark: nothing runs off the side.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await checkA11y();
  await shoot(page, 'attention');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });

  // Add to knowledge: the owner writes the answer; the item is created and the entry goes away.
  await vouchers.getByRole('button', { name: 'Add to knowledge' }).click();
  const dialog = page.getByRole('dialog', { name: 'Answer this question' });
  await dialog
    .getByRole('textbox', { name: 'Answer' })
    .fill('Yes: we sell gift vouchers at the ticket office and online, for any amount.');
  await checkA11y();
  await shoot(page, 'attention-answer-dialog');
  await dialog.getByRole('button', { name: 'Add to knowledge' }).click();
  await expect(page.getByText('Added to the knowledge base')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(vouchers).toHaveCount(0);
  await expect(sidebar.getByRole('link', { name: 'Needs attention 4 items' })).toBeVisible();
  // Its ingestion shows right here, live, until it is ready.
  const added = page.getByRole('list', { name: 'Added to knowledge' });
  const item = added.getByRole('listitem', { name: 'Do you sell gift vouchers?' });
  await expect(item).toContainText('Ready', { timeout: 30_000 });
  await expect(item).toContainText('the assistant answers this question from it now');
  // Checked once the toast is gone: axe would measure it half-transparent while it fades.
  await expect(page.getByText('Added to the knowledge base')).toBeHidden();
  await checkA11y();

  // Dismiss, confirmed: the visitor's question first, then the last one.
  const visit = unanswered.getByRole('listitem', { name: /^Can somebody call me about a group visit/ });
  await visit.getByRole('button', { name: 'Dismiss' }).click();
  await page
    .getByRole('dialog', { name: 'Dismiss this question?' })
    .getByRole('button', { name: 'Dismiss' })
    .click();
  await expect(visit).toHaveCount(0);
  // Its toast shows, then fades, so the next dismissal's toast is the only one.
  await expect(page.getByText('Question dismissed')).toBeVisible();
  await expect(page.getByText('Question dismissed')).toBeHidden();
  const dog = unanswered.getByRole('listitem', { name: 'Are dogs welcome?' });
  await dog.getByRole('button', { name: 'Dismiss' }).click();
  await page
    .getByRole('dialog', { name: 'Dismiss this question?' })
    .getByRole('button', { name: 'Dismiss' })
    .click();
  await expect(page.getByText('Question dismissed')).toBeVisible();
  // The entry and its button are gone: focus stays in the section.
  await expect(page.getByRole('heading', { name: /^Unanswered questions/ })).toBeFocused();
  await expect(page.getByText('Every question was answered from your knowledge.')).toBeVisible();

  // A 👎 answer leads to its conversation, and can be dismissed.
  await expect(
    feedback.getByRole('link', { name: 'Open conversation of “When is the lamp cleaned?”' }),
  ).toHaveAttribute('href', `/applications/${app.uuid}/messages/${rated.chatroom}`);
  await feedback.getByRole('button', { name: /^Dismiss/ }).click();
  await expect(page.getByText('No answer was rated bad.')).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Bad answers/ })).toBeFocused();

  // The new item is in the knowledge base, one click away.
  await page.getByRole('link', { name: 'Open the knowledge base' }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/${app.uuid}/knowledge-base$`));
  await expect(page.getByRole('main').getByText('Do you sell gift vouchers?')).toBeVisible();
  // A Q&A pair: its answer shows under the question.
  await expect(page.getByRole('main').locator('[data-qa-answer]')).toHaveText(
    'Yes: we sell gift vouchers at the ticket office and online, for any amount.',
  );
});
