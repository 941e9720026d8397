import path from 'node:path';
import { type FakeOpenAI, startFakeOpenAI } from '../apps/api/src/testing/fake-openai-server';
import { expect, test } from './fixtures';
import { uploadHandbook } from './handbook';

test.describe('chat', () => {
  test('ask about an uploaded document: streamed answer, working citation, same history after reload', async ({
    page,
    api,
    signIn,
    checkA11y,
  }) => {
    const user = await signIn(await api.newUser('chat'));
    const app = await user.createApplication('Lighthouse');
    await uploadHandbook(api, user.token, app.uuid);

    await page.goto(`/applications/${app.uuid}/messages/new_chat`);
    await expect(page.getByRole('heading', { level: 1, name: 'New Chat' })).toBeVisible();
    await expect(page.getByText('Ask your knowledge')).toBeVisible();

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('When is the lamp of the lighthouse cleaned?');
    await box.press('Enter');
    // Appended at once, then the draft becomes a chatroom: the URL follows.
    await expect(page.getByRole('listitem', { name: 'Your message' })).toContainText('When is the lamp');
    await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const answer = page.getByRole('listitem', { name: 'Answer' });
    await expect(answer).toContainText('cleaned every Tuesday at dawn');
    // A short answer: the sentence that answers, cited, not the rest of the handbook.
    await expect(answer).not.toContainText('Visitors may climb');
    await expect(answer).not.toContainText('Spare bulbs');
    await expect(answer.getByRole('button', { name: 'Copy answer' })).toBeVisible();
    // The sidebar lists the new chatroom, named from the first message.
    await expect(page.getByRole('list', { name: 'Chatrooms' })).toContainText(
      'When is the lamp of the lighthouse cleaned?',
    );

    // The inline citation opens the cited passage.
    await answer.getByRole('button', { name: /^Source 1: Lighthouse keeper handbook/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('[1] Lighthouse keeper handbook');
    await expect(dialog).toContainText('Lamp maintenance');
    await expect(dialog).toContainText(
      'The lamp of the Mousehole lighthouse is cleaned every Tuesday at dawn.',
    );
    await expect(dialog.getByRole('link', { name: 'Open in knowledge base' })).toHaveAttribute(
      'href',
      new RegExp(`/applications/${app.uuid}/knowledge-base\\?preview=`),
    );
    await checkA11y();
    await page.keyboard.press('Escape');

    // Thumbs up is stored with the message.
    await answer.getByRole('button', { name: 'Good answer' }).click();
    await expect(answer.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'true');
    await page.screenshot({
      path: path.resolve(import.meta.dirname, 'screenshots/messages-answered-1280-light.png'),
    });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({
      path: path.resolve(import.meta.dirname, 'screenshots/messages-answered-375-dark.png'),
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });

    // Nothing relevant, even with words of the handbook in it: the assistant declines instead of quoting.
    await box.fill('What is the price of a helicopter ride to the lighthouse?');
    await box.press('Enter');
    const refusal = page.getByRole('listitem', { name: 'Answer' }).nth(1);
    await expect(refusal).toContainText("Sorry, I don't have information about that.");
    await expect(refusal.getByRole('button', { name: /^Source/ })).toHaveCount(0);

    const before = await page.getByRole('list', { name: 'Messages' }).innerText();
    await page.reload();
    await expect(page.getByRole('listitem', { name: 'Answer' })).toHaveCount(2);
    await expect(page.getByRole('listitem', { name: 'Your message' })).toHaveCount(2);
    await expect(
      page.getByRole('listitem', { name: 'Answer' }).first().getByRole('button', { name: 'Good answer' }),
    ).toHaveAttribute('aria-pressed', 'true');
    expect(await page.getByRole('list', { name: 'Messages' }).innerText()).toBe(before);
  });

  test('a provider streams the answer live; stop is offered while it streams', async ({
    page,
    api,
    signIn,
  }) => {
    let fake: FakeOpenAI | undefined;
    try {
      fake = await startFakeOpenAI({
        models: ['fake-chat'],
        reply:
          'Visitors may climb the tower on Saturdays between ten and four [1]. Children under eight stay off the gallery [1].',
        chunkDelayMs: 120,
        // The model takes a moment before its first token, as a real one does.
        headersDelayMs: 800,
      });
      const user = await signIn(await api.newUser('chat-stream'));
      const app = await user.createApplication('Lighthouse live');
      await uploadHandbook(api, user.token, app.uuid);
      const provider = await api.call<{ uuid: string }>('POST', '/api/model-providers/', {
        token: user.token,
        json: { kind: 'openai_compatible', name: 'Local', base_url: fake.url },
      });
      const model = await api.call<{ uuid: string }>(
        'POST',
        `/api/model-providers/${provider.body.uuid}/models/`,
        {
          token: user.token,
          json: { name: 'fake-chat', model_type: 'text' },
        },
      );
      const patched = await api.call('PATCH', `/api/applications/${app.uuid}/`, {
        token: user.token,
        json: { llm_models: [model.body.uuid, 'builtin-embedding'] },
      });
      expect(patched.status).toBe(200);

      await page.goto(`/applications/${app.uuid}/messages/new_chat`);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('When can visitors climb the tower?');
      await box.press('Enter');
      const answer = page.getByRole('listitem', { name: 'Answer' });
      // Before the first token the answer says it is thinking.
      await expect(answer).toContainText('Thinking…');
      await page.screenshot({
        path: path.resolve(import.meta.dirname, 'screenshots/messages-thinking-1280-light.png'),
      });
      // Mid-stream: part of the text is there, the answer is busy and can be stopped.
      await expect(answer).toContainText('Visitors may climb');
      await expect(answer).toHaveAttribute('aria-busy', 'true');
      await expect(page.getByRole('button', { name: 'Stop' }).first()).toBeVisible();
      await expect(answer).toContainText('stay off the gallery');
      await expect(answer).toHaveAttribute('aria-busy', 'false');
      await expect(
        answer.getByRole('button', { name: /^Source 1: Lighthouse keeper handbook/ }).first(),
      ).toBeVisible();
      // Only the one cited source is listed.
      await expect(answer.getByRole('heading', { name: 'Sources' })).toBeVisible();
      await expect(answer.locator('ol li')).toHaveCount(1);

      // Stopped mid-stream: stamped when it stopped, which is in the past however the stop's
      // events arrive (it read "in a few seconds" when the stamp changed after it was shown).
      await box.fill('And can children climb it?');
      await box.press('Enter');
      const second = page.getByRole('listitem', { name: 'Answer' }).nth(1);
      await expect(second).toContainText('Visitors may climb');
      await second.getByRole('button', { name: 'Stop' }).click();
      await expect(second).toContainText('Stopped.');
      const room = page.url().split('/').at(-1);
      const stored = async () => {
        const res = await api.call<{ messages: { uuid: string; status: string; updated_at: string }[] }>(
          'GET',
          `/api/applications/${app.uuid}/chatrooms/${room}/messages/`,
          { token: user.token },
        );
        return res.body.messages.at(-1)!;
      };
      await expect.poll(async () => (await stored()).status).toBe('stopped');
      const stamp = second.locator('time');
      await expect(stamp).toHaveAttribute('datetime', (await stored()).updated_at);
      await expect(stamp).toHaveText('a few seconds ago');
    } finally {
      await fake?.close();
    }
  });

  test('a failed send keeps the message with a retry and a toast', async ({
    page,
    api,
    signIn,
    allowConsoleError,
  }) => {
    allowConsoleError(/status of 503/);
    const user = await signIn(await api.newUser('chat-fail'));
    const app = await user.createApplication('Flaky');
    await page.goto(`/applications/${app.uuid}/messages/new_chat`);
    await page.route('**/chatrooms/send-message/', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ detail: 'Service unavailable, try again.', code: 'unavailable' }),
      }),
    );
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello?');
    await box.press('Enter');
    await expect(page.getByText('Failed to send message')).toBeVisible();
    const mine = page.getByRole('listitem', { name: 'Your message' });
    await expect(mine).toContainText('Hello?');
    await expect(mine.getByRole('alert')).toContainText('Service unavailable, try again.');
    await expect(page).toHaveURL(/\/messages\/new_chat$/);

    await page.unroute('**/chatrooms/send-message/');
    await mine.getByRole('button', { name: 'Retry' }).click();
    await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('listitem', { name: 'Your message' })).toHaveCount(1);
    // Small talk gets the application's greeting, not quotes.
    await expect(page.getByRole('listitem', { name: 'Answer' })).toContainText('Ask me anything');
  });

  test('rename and delete a chatroom from the sidebar; an unknown chatroom is not found', async ({
    page,
    api,
    signIn,
    allowConsoleError,
  }) => {
    allowConsoleError(/status of 404/);
    const user = await signIn(await api.newUser('chat-rooms'));
    const app = await user.createApplication('Rooms');
    const sent = await api.call<{ chatroom: { uuid: string } }>(
      'POST',
      `/api/applications/${app.uuid}/chatrooms/send-message/`,
      {
        token: user.token,
        json: {
          chatroom_identifier: 'new_chat',
          message: 'First topic',
          sender_identifier: await senderOf(api, user.token),
        },
      },
    );
    expect(sent.status).toBe(201);
    await page.goto(`/applications/${app.uuid}/messages/${sent.body.chatroom.uuid}`);
    const rooms = page.getByRole('list', { name: 'Chatrooms' });
    await expect(rooms).toContainText('First topic');
    await rooms.getByRole('button', { name: 'Actions for First topic' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Renamed topic');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(rooms).toContainText('Renamed topic');
    await expect(page.getByRole('heading', { level: 1, name: 'Renamed topic' })).toBeVisible();

    await rooms.getByRole('button', { name: 'Actions for Renamed topic' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/messages\/new_chat$/);
    await expect(page.getByText('No chats yet.')).toBeVisible();

    const missing = await page.goto(
      `/applications/${app.uuid}/messages/00000000-0000-4000-8000-000000000000`,
    );
    expect(missing?.status()).toBe(404);
  });
});

async function senderOf(
  api: { call: <T>(m: string, p: string, o?: { token?: string }) => Promise<{ status: number; body: T }> },
  token: string,
) {
  const me = await api.call<{ id: number }>('GET', '/api/me/', { token });
  return `reg_${me.body.id}`;
}
