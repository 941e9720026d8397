import { type apiHelpers, expect, type TestUser, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';
import { showWidgetForm } from './widget-form';
import { visitorConversation } from './widget-visitor';

const SHOP = 'https://shop.example.com';
const LONG_ORIGINS = [
  SHOP,
  'https://www.northern-highlands-visitor-centre-and-long-distance-walking-routes.example.org',
  'http://localhost:5173',
  'https://help.example.com',
];
const LONG_TITLE = 'Ask the Northern Highlands trail guide about routes';

type Api = ReturnType<typeof apiHelpers>;

/** The widget on, for the shop's origin (through the owner API, as the settings page would save it). */
async function enableWidget(api: Api, user: TestUser, appId: string) {
  const res = await api.call('PATCH', `/api/applications/${appId}/widget/`, {
    token: user.token,
    json: { enabled: true, allowed_origins: [SHOP] },
  });
  expect(res.status).toBe(200);
}

const WINTER_ROUTES = `${SHOP}/trails/winter-routes/cairngorm-plateau-and-northern-corries?ref=newsletter`;

test('the owner turns the widget on, allows sites, shapes it, copies the code and saves', async ({
  page,
  context,
  server,
  api,
  signIn,
  checkA11y,
}) => {
  await context.addCookies([{ name: 'theme', value: 'gray.light', url: server.url }]);
  const user = await signIn(await api.newUser('widget'));
  const app = await user.createApplication('Trail guide for the Northern Highlands visitor centre');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const settingsUrl = `/applications/${app.uuid}/api-keys-and-widget`;

  await page.goto(settingsUrl);
  const widget = await showWidgetForm(page);
  await expect(page.getByRole('heading', { name: 'Website widget' })).toBeVisible();
  // Deny by default: off, no site, and the page says what that means.
  const enabled = widget.getByRole('switch', { name: 'Widget on' });
  await expect(enabled).not.toBeChecked();
  await expect(widget.getByText('The widget works on no site until you add one')).toBeVisible();
  await expect(widget.getByText('Default settings, not changed yet')).toBeVisible();
  // The live preview is the real embed page, in preview mode.
  await expect(widget.locator('iframe[title="Widget preview"]')).toHaveAttribute(
    'src',
    `/embed/v1/${app.uuid}?origin=${encodeURIComponent(server.url)}&preview=1`,
  );
  await checkA11y();
  await shoot(page, 'widget-settings-empty');

  await enabled.click();
  await expect(enabled).toBeChecked();
  await expect(widget.getByText('Unsaved changes', { exact: true })).toBeVisible();

  // A bad origin is refused at the field; Enter adds instead of saving the form.
  const addSite = widget.getByLabel('Add a site');
  await addSite.fill(`${SHOP}/pricing`);
  await addSite.press('Enter');
  await expect(widget.locator('#widget-origin-new-error')).toHaveText(
    'Must be an origin such as https://shop.example.com (scheme, host and port only)',
  );
  await expect(addSite).toBeFocused();
  await addSite.fill('https://*.example.com');
  await widget.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(widget.locator('#widget-origin-new-error')).toContainText('Must be an origin');
  // Good ones are normalised as the browser writes location.origin; a repeat is refused.
  await addSite.fill('https://Shop.Example.com/');
  await addSite.press('Enter');
  await expect(widget.locator('#widget-origin-new-error')).toBeHidden();
  await addSite.fill(SHOP);
  await addSite.press('Enter');
  await expect(widget.locator('#widget-origin-new-error')).toHaveText('Already in the list');
  for (const origin of LONG_ORIGINS.slice(1)) {
    await addSite.fill(origin);
    await addSite.press('Enter');
  }
  const sites = widget.getByRole('list', { name: 'Allowed sites' });
  await expect(sites.getByRole('listitem')).toHaveText(LONG_ORIGINS);
  await expect(widget.getByText('The widget works on no site until you add one')).toBeHidden();
  await sites.getByRole('button', { name: 'Remove http://localhost:5173' }).click();
  await expect(sites.getByRole('listitem')).toHaveCount(3);

  // Appearance, previewed live by the real widget: the embed page answers the owner in preview
  // mode, and the form posts its unsaved appearance into it.
  const preview = widget.locator('iframe[title="Widget preview"]');
  await preview.scrollIntoViewIfNeeded();
  const frame = (await (await preview.elementHandle())!.contentFrame())!;
  await expect(frame.locator('#cairn-boot')).toHaveCount(1);
  const boot = JSON.parse((await frame.locator('#cairn-boot').textContent())!);
  expect(boot).toMatchObject({ preview: true, token: '', origin: server.url });
  await frame.evaluate(() => {
    const seen: unknown[] = [];
    (window as unknown as { seen: unknown[] }).seen = seen;
    window.addEventListener('message', (event) => seen.push(event.data));
  });
  await widget.getByLabel('Title').fill(LONG_TITLE);
  await expect
    .poll(() =>
      frame.evaluate(
        () => (window as unknown as { seen: { config?: { title?: string } }[] }).seen.at(-1)?.config?.title,
      ),
    )
    .toBe(LONG_TITLE);
  await widget.getByLabel('Greeting').fill('Hello! Ask me about trails, opening hours and parking.');
  await widget.getByRole('button', { name: 'Add a question' }).click();
  await widget.getByRole('textbox', { name: 'Question 1' }).fill('Which trails are open in winter?');
  await widget.getByRole('button', { name: 'Add a question' }).click();
  await widget.getByRole('textbox', { name: 'Question 2' }).fill('Where can I park a camper van?');
  await widget.getByLabel('Accent colour', { exact: true }).fill('#0F766E');
  await widget.getByText('Bottom left').click();
  await widget.getByRole('switch', { name: 'Open on load' }).click();
  await widget.getByRole('switch', { name: 'Feedback buttons' }).click();
  await widget.getByLabel('Minutes to reply').fill('15');

  // Bad input beside the happy path: each problem on its own field, nothing saved.
  await widget.getByLabel('Per visitor, per hour').fill('');
  await widget.getByRole('textbox', { name: 'Question 2' }).fill('   ');
  await widget.getByRole('button', { name: 'Save changes' }).click();
  await expect(widget.locator('#widget-visitor-hour-error')).toHaveText('Must be a number');
  await expect(widget.locator('#widget-question-1-error')).toHaveText('Must not be empty');
  await expect(widget.getByText('Not saved: check the marked fields')).toBeVisible();
  await checkA11y();
  await widget.getByLabel('Per visitor, per hour').scrollIntoViewIfNeeded();
  await shoot(page, 'widget-settings-error', { fullPage: false });
  await widget.getByLabel('Per visitor, per hour').fill('40');
  await widget.getByRole('button', { name: 'Remove question 2' }).click();

  // The embed code, copied.
  await widget.getByRole('button', { name: 'Copy the embed code' }).click();
  await expect(page.getByText('Copied', { exact: true })).toBeVisible();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toBe(`<script src="${server.url}/widget.js" data-app="${app.uuid}" async></script>`);

  await widget.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Widget settings saved')).toBeVisible();
  await expect(widget.getByText(/All changes saved/)).toBeVisible();
  await expect(widget.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  const saved = await api.call<Record<string, unknown>>('GET', `/api/applications/${app.uuid}/widget/`, {
    token: user.token,
  });
  expect(saved.body).toMatchObject({
    enabled: true,
    allowed_origins: [SHOP, LONG_ORIGINS[1], LONG_ORIGINS[3]],
    title: LONG_TITLE,
    suggested_questions: ['Which trails are open in winter?'],
    accent_color: '#0f766e',
    position: 'left',
    open_on_load: true,
    feedback_buttons: false,
    limits: { visitor_messages_per_hour: 40 },
    takeover: { wait_minutes: 15 },
  });

  // Saved means saved: a reload shows the same values.
  await page.reload();
  await showWidgetForm(page);
  await expect(enabled).toBeChecked();
  await expect(sites.getByRole('listitem')).toHaveText([SHOP, LONG_ORIGINS[1]!, LONG_ORIGINS[3]!]);
  await expect(widget.getByLabel('Title')).toHaveValue(LONG_TITLE);
  await expect(widget.getByRole('textbox', { name: 'Question 1' })).toHaveValue(
    'Which trails are open in winter?',
  );
  await expect(widget.getByLabel('Accent colour', { exact: true })).toHaveValue('#0f766e');
  await expect(widget.getByRole('radio', { name: 'Bottom left' })).toBeChecked();
  await expect(widget.getByRole('switch', { name: 'Open on load' })).toBeChecked();
  await expect(widget.getByRole('switch', { name: 'Feedback buttons' })).not.toBeChecked();
  await expect(widget.getByLabel('Per visitor, per hour')).toHaveValue('40');
  await expect(widget.getByLabel('Minutes to reply')).toHaveValue('15');
  await checkA11y();
  await shoot(page, 'widget-settings-filled');

  // Leaving with unsaved changes asks first; Discard goes back to what is saved.
  await widget.getByLabel('Title').fill('Something else');
  await page.getByRole('link', { name: 'Knowledge base' }).first().click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(new RegExp(`${settingsUrl}$`));
  await widget.getByRole('button', { name: 'Discard' }).click();
  await expect(widget.getByLabel('Title')).toHaveValue(LONG_TITLE);
  await page.getByRole('link', { name: 'Knowledge base' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/applications/${app.uuid}/knowledge-base$`));

  // 375 px, dark: the same form, no sideways scrolling.
  await context.addCookies([{ name: 'theme', value: 'gray.dark', url: server.url }]);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(settingsUrl);
  await showWidgetForm(page);
  await expect(enabled).toBeChecked();
  await expectNoSidewaysScroll(page);
  await shoot(page, 'widget-settings-filled');
  await checkA11y();
});

test('a visitor waiting for a person: the owner sees it live, takes over, replies and hands back', async ({
  page,
  context,
  server,
  api,
  signIn,
  checkA11y,
}) => {
  await context.addCookies([{ name: 'theme', value: 'gray.light', url: server.url }]);
  const user = await signIn(await api.newUser('takeover'));
  await api.call('PATCH', '/api/me/', {
    token: user.token,
    json: { first_name: 'Ada', last_name: 'Lovelace' },
  });
  const app = await user.createApplication('Trail guide');
  await enableWidget(api, user, app.uuid);
  const first = await visitorConversation(server.url, app.uuid, {
    origin: SHOP,
    pageUrl: WINTER_ROUTES,
    message: 'Is the visitor centre open on Sundays in winter, and can I bring my dog inside?',
    handoff: true,
  });

  // Live on any page: a visitor asks for a person while the owner looks elsewhere; the sidebar
  // marks the new conversation and counts those waiting, without a reload.
  await page.goto(`/applications/${app.uuid}`);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  const rooms = sidebar.getByRole('list', { name: 'Chatrooms' });
  await expect(rooms.getByRole('link')).toHaveText([/via Widget, Waiting for a person$/]);
  await expect(sidebar.getByText('1 waiting')).toBeVisible();
  const second = await visitorConversation(server.url, app.uuid, {
    origin: SHOP,
    pageUrl: WINTER_ROUTES,
    message: 'Do you sell printed maps of the northern corries?',
    handoff: true,
  });
  await expect(sidebar.getByText('2 waiting')).toBeVisible();
  await expect(rooms.getByRole('link')).toHaveText([
    /^Do you sell printed maps.*via Widget, Waiting for a person$/,
    /^Is the visitor centre open.*via Widget, Waiting for a person$/,
  ]);

  await rooms.getByRole('link', { name: /^Is the visitor centre open/ }).click();
  await expect(page).toHaveURL(new RegExp(`/messages/${first.uuid}$`));
  // The page the conversation started on, as a link; the visitor's message on the visitor's side.
  await expect(page.getByRole('link', { name: /shop\.example\.com\/trails\/winter-routes/ })).toHaveAttribute(
    'href',
    /^https:\/\/shop\.example\.com\/trails\/winter-routes\//,
  );
  await expect(page.getByRole('listitem', { name: 'Visitor’s message' })).toContainText(
    'Is the visitor centre open on Sundays',
  );
  const bar = page.getByRole('region', { name: 'Who answers' });
  await expect(bar).toContainText('The visitor is waiting for a person since');
  await expect(page.getByPlaceholder('Reply to the visitor…')).toBeVisible();
  await checkA11y();
  await shoot(page, 'widget-chat-waiting', { fullPage: false });

  // Take over, then hand back: each said at once, and true on the server.
  await bar.getByRole('button', { name: 'Take over' }).click();
  await expect(bar).toContainText('You are handling this conversation');
  await expect(sidebar.getByText('1 waiting')).toBeVisible();
  const roomOf = async () =>
    (
      await api.call<{ handled_by: string; waiting_since: null }>(
        'GET',
        `/api/applications/${app.uuid}/chatrooms/${first.uuid}/messages/`,
        { token: user.token },
      )
    ).body;
  expect(await roomOf()).toMatchObject({ handled_by: 'human', waiting_since: null });
  await bar.getByRole('button', { name: 'Hand back to the assistant' }).click();
  await expect(bar).toContainText('The assistant is answering');
  expect(await roomOf()).toMatchObject({ handled_by: 'assistant' });
  // Nobody waits in it and no person answers: it leaves the sidebar for the conversation log.
  await expect(rooms.getByRole('link', { name: /^Is the visitor centre open/ })).toHaveCount(0);

  // A reply goes to the visitor, under the owner's name, and takes the conversation over.
  const reply = 'Hi! Yes, we are open on Sundays from 10:00 to 16:00 all winter, and dogs are welcome.';
  await page.getByPlaceholder('Reply to the visitor…').fill(reply);
  await page.getByRole('button', { name: 'Send' }).click();
  const mine = page.getByRole('listitem', { name: 'Your reply to the visitor, as Ada' });
  await expect(mine).toContainText(reply);
  await expect(mine).toContainText('Ada');
  await expect(bar).toContainText('You are handling this conversation');
  const seen = await fetch(`${server.url}/api/widget/v1/conversations/${first.uuid}/`, {
    headers: { authorization: `Bearer ${first.token}` },
  });
  const { messages } = (await seen.json()) as {
    messages: { role: string; author_name: string; text: string }[];
  };
  expect(messages.at(-1)).toMatchObject({ role: 'human', author_name: 'Ada', text: reply });
  await checkA11y();
  await shoot(page, 'widget-chat-human', { fullPage: false });

  await context.addCookies([{ name: 'theme', value: 'gray.dark', url: server.url }]);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(bar).toContainText('You are handling this conversation');
  await expectNoSidewaysScroll(page);
  await shoot(page, 'widget-chat-human', { fullPage: false });
  await checkA11y();
  await page.goto(`/applications/${app.uuid}/messages/${second.uuid}`);
  await expect(bar).toContainText('The visitor is waiting for a person since');
  await expectNoSidewaysScroll(page);
  await shoot(page, 'widget-chat-waiting', { fullPage: false });
  await checkA11y();
});
