import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { uploadHandbook } from './handbook';
import { expectNoSidewaysScroll, shoot } from './look';
import { showWidgetForm } from './widget-form';

/**
 * A customer's website on its own loopback origin (`localhost`, so it is another site than the
 * Cairn server on 127.0.0.1): every page pastes the owner's snippet as it is.
 */
async function startHostSite(snippet: string) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
        `<title>Mousehole lighthouse</title><style>body{font-family:serif;margin:2rem;background:#fdf6e3}a,button{all:unset}</style></head>` +
        `<body><a href="/">Home</a> <a href="/visit">Visit us</a><h1>Mousehole lighthouse</h1>` +
        `<p>Page ${req.url}. The host page's own styles must not reach the widget.</p>` +
        // The documented stub: calls made before the loader runs are queued, then replayed.
        '<script>window.Cairn=window.Cairn||function(){(Cairn.q=Cairn.q||[]).push(arguments)};window.seen=[];' +
        "['ready','open','close'].forEach(function(e){Cairn('on',e,function(){seen.push(e)})});" +
        "Cairn('on','message',function(m){seen.push('message:'+m.role)});</script>" +
        `${snippet}</body></html>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

const launcherOf = (page: Page) => page.getByRole('button', { name: /^(Open|Close) chat: Lighthouse$/ });
const chatOf = (page: Page): FrameLocator => page.frameLocator('iframe[title="Lighthouse"]');
const assistantMessages = (chat: FrameLocator): Locator => chat.locator('.msg.assistant .bubble');

test('a visitor chats on an allowed site, gets a person, and is held to the limit; other sites get nothing', async ({
  page,
  browser,
  server,
  api,
  checkA11y,
  allowConsoleError,
}) => {
  test.setTimeout(120_000);
  // The browser logs the 429 the visitor gets over the limit; the test checks what the chat says.
  allowConsoleError(/status of 429/);
  const owner = await api.newUser('widget-owner');
  await api.call('PATCH', '/api/me/', {
    token: owner.token,
    json: { first_name: 'Grace', last_name: 'Hopper' },
  });
  const app = await owner.createApplication('Lighthouse');
  await uploadHandbook(api, owner.token, app.uuid);
  const settings = await api.call<{ embed_snippet: string }>('GET', `/api/applications/${app.uuid}/widget/`, {
    token: owner.token,
  });
  const site = await startHostSite(settings.body.embed_snippet);
  const otherSite = await startHostSite(settings.body.embed_snippet);
  const saved = await api.call('PATCH', `/api/applications/${app.uuid}/widget/`, {
    token: owner.token,
    json: {
      enabled: true,
      allowed_origins: [site.origin],
      greeting: 'Hello! Ask me about the **lighthouse**.',
      suggested_questions: ['When is the lamp cleaned?'],
      limits: {
        visitor_messages_per_hour: 3,
        limit_message: 'That is all for this hour: call us on 01736 000000.',
      },
    },
  });
  expect(saved.status).toBe(200);

  // The owner watches the messages page in a browser of their own.
  const ownerContext = await browser.newContext({ baseURL: server.url });
  await ownerContext.addCookies([{ name: 'auth_token', value: owner.token, url: server.url }]);
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto(`/applications/${app.uuid}/messages/new_chat`);
  const rooms = ownerPage
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('list', { name: 'Chatrooms' });

  // The visitor opens the widget with the keyboard; the chat takes the focus.
  await page.goto(`${site.origin}/visit`);
  const launcher = launcherOf(page);
  await expect(launcher).toBeVisible();
  await expect(page.locator('iframe')).toHaveCount(0);
  for (
    let i = 0;
    i < 5 &&
    !(await launcher.evaluate(
      (b) => b.getRootNode() instanceof ShadowRoot && (b.getRootNode() as ShadowRoot).activeElement === b,
    ));
    i++
  ) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(launcher).toHaveAttribute('aria-expanded', 'true');
  const chat = chatOf(page);
  const box = chat.getByRole('textbox', { name: 'Your message' });
  await expect(chat.getByText('Hello! Ask me about the lighthouse.')).toBeVisible();
  await expect(box).toBeFocused();
  await checkA11y();
  await shoot(page, 'widget-visitor-greeting', { fullPage: false });

  // A suggested question; the answer streams in with its citation, which opens the passage.
  await chat.getByRole('button', { name: 'When is the lamp cleaned?' }).click();
  await expect(chat.locator('.msg.visitor')).toHaveText(['When is the lamp cleaned?']);
  await expect(assistantMessages(chat).last()).toContainText('cleaned every Tuesday at dawn');
  await chat.getByRole('button', { name: /^Source 1: Lighthouse keeper handbook/ }).click();
  const source = chat.getByRole('dialog');
  await expect(source).toContainText('Lighthouse keeper handbook');
  await expect(source).toContainText(
    'The lamp of the Mousehole lighthouse is cleaned every Tuesday at dawn.',
  );
  await shoot(page, 'widget-visitor-source', { fullPage: false });
  await page.keyboard.press('Escape');
  await expect(source).toBeHidden();
  await chat.getByRole('button', { name: 'Helpful', exact: true }).click();
  await expect(chat.getByRole('button', { name: 'Helpful', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // A visitor chatting with the assistant is in the conversation log, not the owner's sidebar.
  await expect(rooms.getByRole('link', { name: /^When is the lamp cleaned\?/ })).toHaveCount(0);

  // Esc closes the chat and gives the focus back to the launcher.
  await box.focus();
  await page.keyboard.press('Escape');
  await expect(launcher).toHaveAttribute('aria-expanded', 'false');
  expect(await launcher.evaluate((b) => (b.getRootNode() as ShadowRoot).activeElement === b)).toBe(true);

  // A reload (or another page of the site) keeps the conversation.
  await page.goto(`${site.origin}/`);
  await launcher.click();
  await expect(assistantMessages(chat).last()).toContainText('cleaned every Tuesday at dawn');
  await expect(chat.locator('.msg.visitor')).toHaveText(['When is the lamp cleaned?']);

  // The visitor asks for a person: told to wait; the owner sees it at once and replies.
  await chat.getByRole('button', { name: 'Talk to a person' }).click();
  await expect(chat.getByRole('status').filter({ hasText: 'Waiting for a person' })).toBeVisible();
  // The owner is e-mailed at once (not after the profile's 3-minute e-mail delay) with the time left.
  const mail = await server.lastMail(owner.email, 'A visitor is waiting for a person in Lighthouse');
  expect(mail.text.replace(/=\r?\n/g, '')).toMatch(/Reply within [45] minutes \(by \d\d:\d\d UTC\)/);
  await rooms.getByRole('link', { name: /^When is the lamp cleaned\?.*Waiting for a person/ }).click();
  const reply = 'Hi, Grace here: the lamp is cleaned on Tuesdays, and you are welcome to watch.';
  await ownerPage.getByPlaceholder('Reply to the visitor…').fill(reply);
  await ownerPage.getByRole('button', { name: 'Send' }).click();
  const human = chat.locator('.msg.human');
  await expect(human).toContainText(reply);
  // Without a display name, visitors see the owner's first name.
  await expect(human.locator('.author')).toHaveText('Grace');
  await expect(chat.getByText('You are chatting with Grace.')).toBeVisible();
  await shoot(page, 'widget-visitor-person', { fullPage: false });

  // What people write is shown, never run or loaded: no image request, no script, no javascript: link.
  const hostile =
    'See ![map](http://127.0.0.1:9/pixel.png) <img src=x onerror="document.title=1"> [site](javascript:alert(1)) **here**';
  await ownerPage.getByPlaceholder('Reply to the visitor…').fill(hostile);
  await ownerPage.getByRole('button', { name: 'Send' }).click();
  const shown = human.last();
  await expect(shown).toContainText('[image: map] <img src=x onerror="document.title=1">');
  await expect(shown.locator('img, script')).toHaveCount(0);
  await expect(shown.locator('strong')).toHaveText('here');
  expect(
    await shown.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
  ).not.toContain('javascript:alert(1)');

  // While a person handles it, the assistant stays silent.
  const answersBefore = await assistantMessages(chat).count();
  await box.fill('Can I bring my dog?');
  await box.press('Enter');
  await expect(ownerPage.getByRole('listitem', { name: 'Visitor’s message' }).last()).toContainText(
    'Can I bring my dog?',
  );
  await ownerPage.waitForTimeout(1500);
  await expect(assistantMessages(chat)).toHaveCount(answersBefore);

  // Handed back, the assistant says so, answers what the person left unanswered, and answers again.
  const bar = ownerPage.getByRole('region', { name: 'Who answers' });
  await bar.getByRole('button', { name: 'Hand back to the assistant' }).click();
  await expect(bar).toContainText('The assistant is answering');
  const back = chat.locator('.msg.system');
  await expect(back).toHaveText('You are chatting with the assistant again.');
  // A notice, not an answer: nothing to rate.
  await expect(back.getByRole('button')).toHaveCount(0);
  await expect(assistantMessages(chat)).toHaveCount(answersBefore + 1);
  const dogAnswer = chat.locator('.msg.assistant').last();
  await expect(dogAnswer.getByRole('button', { name: 'Helpful', exact: true })).toBeVisible();
  // The handbook says nothing of dogs: a person is offered once, under that answer, not also below.
  await expect(chat.getByRole('button', { name: 'Talk to a person' })).toHaveCount(1);
  await expect(dogAnswer.getByRole('button', { name: 'Talk to a person' })).toBeVisible();
  await expect(ownerPage.getByRole('listitem', { name: 'Notice to the visitor' })).toHaveText(
    /You are chatting with the assistant again\./,
  );
  await checkA11y();
  await shoot(page, 'widget-visitor-handed-back', { fullPage: false });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 375, height: 800 });
  await back.scrollIntoViewIfNeeded();
  await checkA11y();
  await shoot(page, 'widget-visitor-handed-back', { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await box.fill('When can visitors climb the tower?');
  await box.press('Enter');
  await expect(assistantMessages(chat).last()).toContainText('Saturdays between 10:00 and 16:00');

  // Over the limit (3 an hour): the owner's words, and the typed text is kept.
  await box.fill('And on Sundays?');
  await box.press('Enter');
  await expect(chat.getByRole('alert')).toHaveText('That is all for this hour: call us on 01736 000000.');
  await expect(box).toHaveValue('And on Sundays?');
  await shoot(page, 'widget-visitor-limit', { fullPage: false });

  // The host page heard the widget's events; Cairn('reset') starts a new conversation.
  const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(await seen()).toEqual(expect.arrayContaining(['ready', 'open', 'message:assistant']));
  await page.evaluate(() => (window as unknown as { Cairn: (c: string) => void }).Cairn('reset'));
  await expect(chat.locator('.msg.visitor')).toHaveCount(0);
  await expect(chat.getByRole('button', { name: 'When is the lamp cleaned?' })).toBeVisible();
  await page.evaluate(() => (window as unknown as { Cairn: (c: string) => void }).Cairn('close'));
  await expect(launcher).toHaveAttribute('aria-expanded', 'false');
  expect((await seen()).at(-1)).toBe('close');

  // Another site pasting the same snippet gets no chat at all; its developer is told why in the
  // console, and the owner sees the refused site on the widget screen. The API refuses without a token.
  const elsewhere = await browser.newPage();
  const consoleLines: string[] = [];
  elsewhere.on('console', (message) => consoleLines.push(message.text()));
  await elsewhere.goto(`${otherSite.origin}/`, { waitUntil: 'networkidle' });
  await expect(elsewhere.getByRole('heading', { name: 'Mousehole lighthouse' })).toBeVisible();
  await expect(launcherOf(elsewhere)).toHaveCount(0);
  await expect(elsewhere.locator('[data-cairn-widget]')).toHaveCount(0);
  await expect
    .poll(() => consoleLines.find((line) => line.startsWith('cairn:')))
    .toBe(
      `cairn: ${otherSite.origin} is not an allowed site for this assistant. Its owner can add it under "Allowed sites" on the assistant's "API keys & widget" page.`,
    );
  expect(consoleLines.join('\n')).not.toMatch(/CORS/);
  const launcherSettings = await fetch(`${server.url}/api/widget/v1/launcher/${app.uuid}/`, {
    headers: { origin: otherSite.origin },
  });
  expect(launcherSettings.status).toBe(403);
  await ownerPage.goto(`/applications/${app.uuid}/api-keys-and-widget`);
  await showWidgetForm(ownerPage);
  const refused = ownerPage.getByRole('list', { name: 'Refused sites' });
  await expect(refused.getByRole('listitem')).toHaveText([
    new RegExp(
      `^${otherSite.origin.replace(/[.]/g, '\\.')}not in the list above · (a few seconds|a minute) ago$`,
    ),
  ]);
  await refused.scrollIntoViewIfNeeded();
  await shoot(ownerPage, 'widget-settings-refused', { fullPage: false });
  await ownerPage.emulateMedia({ colorScheme: 'dark' });
  await ownerPage.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(ownerPage);
  await refused.scrollIntoViewIfNeeded();
  await shoot(ownerPage, 'widget-settings-refused', { fullPage: false });
  const framed = await fetch(
    `${server.url}/embed/v1/${app.uuid}?origin=${encodeURIComponent(otherSite.origin)}`,
  );
  expect(framed.status).toBe(403);
  expect(framed.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  const noToken = await fetch(`${server.url}/api/widget/v1/messages/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site.origin },
    body: JSON.stringify({ conversation_uuid: null, message: 'hello' }),
  });
  expect(noToken.status).toBe(401);
  await elsewhere.close();
  await ownerContext.close();
  await site.close();
  await otherSite.close();
});

test('on a phone the chat is full screen, in the visitor’s dark mode, with no sideways scrolling', async ({
  browser,
  api,
}) => {
  const owner = await api.newUser('widget-phone');
  const app = await owner.createApplication('Lighthouse');
  const settings = await api.call<{ embed_snippet: string }>('GET', `/api/applications/${app.uuid}/widget/`, {
    token: owner.token,
  });
  const site = await startHostSite(settings.body.embed_snippet);
  await api.call('PATCH', `/api/applications/${app.uuid}/widget/`, {
    token: owner.token,
    json: {
      enabled: true,
      allowed_origins: [site.origin],
      title: 'Lighthouse',
      greeting: `A long greeting with an identifier that does not wrap by itself: ${'x'.repeat(120)}.`,
      suggested_questions: ['When is the lamp of the Mousehole lighthouse cleaned, and who does it?'],
    },
  });
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(`${site.origin}/`);
  await launcherOf(page).click();
  const frame = page.locator('iframe[title="Lighthouse"]');
  await expect(chatOf(page).getByRole('textbox', { name: 'Your message' })).toBeVisible();
  expect(await frame.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 812 });
  const [scroll, inner] = await chatOf(page)
    .locator('body')
    .evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(inner!);
  await shoot(page, 'widget-visitor-phone', { fullPage: false });
  // Full screen hides the launcher; the chat's own close button (or Esc) brings it back.
  await chatOf(page).getByRole('button', { name: 'Close chat' }).click();
  await expect(launcherOf(page)).toBeVisible();
  await context.close();
  await site.close();
});
