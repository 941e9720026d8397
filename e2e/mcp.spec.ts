import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from '@playwright/test';
import { type apiHelpers, expect, test } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

const HOURS = 'The trail office opens at 9 in the morning and closes at 5 in the afternoon.';

async function waitForReady(api: ReturnType<typeof apiHelpers>, token: string, appId: string) {
  await expect
    .poll(
      async () =>
        (await api.call<Array<{ status: string }>>('GET', `/api/applications/${appId}/knowledge/`, { token }))
          .body[0]?.status,
      { timeout: 30_000 },
    )
    .toBe('ready');
}

async function copied(page: Page, name: string) {
  await page.getByRole('button', { name }).click();
  return page.evaluate(() => navigator.clipboard.readText());
}

test('the copied Cursor configuration reaches the application over MCP, and the answer is in the owner’s log', async ({
  page,
  context,
  server,
  api,
  signIn,
  checkA11y,
}) => {
  await context.addCookies([{ name: 'theme', value: 'gray.light', url: server.url }]);
  const user = await signIn(await api.newUser('mcp'));
  const form = new FormData();
  form.set('name', 'Trail guide');
  form.set('items[0].type', 'text');
  form.set('items[0].title', 'Office hours');
  form.set('items[0].value', HOURS);
  const app = await api.call<{ uuid: string }>('POST', '/api/applications/', { token: user.token, form });
  await waitForReady(api, user.token, app.body.uuid);
  const key = await api.call<{ key: string }>('POST', `/api/applications/${app.body.uuid}/api-keys/`, {
    token: user.token,
    json: { name: 'Cursor' },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });

  await page.goto(`/applications/${app.body.uuid}/api-keys-and-widget`);
  const section = page.getByRole('region', { name: 'Use from AI tools (MCP)' });
  await expect(section.getByText(`${server.url}/api/v1/mcp`, { exact: true })).toBeVisible();
  await expect(section.getByText('"command": "npx"')).toBeVisible();
  await section.getByRole('tab', { name: 'Cursor' }).click();
  const config = JSON.parse(await copied(page, 'Copy the Cursor configuration')) as {
    mcpServers: Record<string, { url: string; headers: { Authorization: string } }>;
  };
  const entry = config.mcpServers['trail-guide']!;
  expect(entry.url).toBe(`${server.url}/api/v1/mcp`);
  await checkA11y();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'api-keys-mcp');
  }

  // As Cursor does: the URL and the header, `${env:CAIRN_API_KEY}` filled in from the environment.
  const authorization = entry.headers.Authorization.replace('${env:CAIRN_API_KEY}', key.body.key);
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { authorization } } }),
  );
  expect(client.getServerVersion()?.name).toBe('Trail guide');
  const result = await client.callTool({
    name: 'ask',
    arguments: { question: 'When does the trail office open?' },
  });
  expect((result.structuredContent as { answer: string }).answer).toContain('opens at 9');
  await client.close();

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/applications/${app.body.uuid}`);
  // The MCP conversation is in the conversation log, not the owner's sidebar.
  await expect(page.getByRole('complementary', { name: 'Sidebar' }).getByText('No chats yet.')).toBeVisible();
});

test.describe('375 px dark', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the MCP configurations fit a phone', async ({ page, context, server, api, signIn, checkA11y }) => {
    await context.addCookies([{ name: 'theme', value: 'gray.dark', url: server.url }]);
    const user = await signIn(await api.newUser('mcp-phone'));
    const app = await user.createApplication(
      'A very long application name for the handbook of the support team',
    );
    await page.goto(`/applications/${app.uuid}/api-keys-and-widget`);
    const section = page.getByRole('region', { name: 'Use from AI tools (MCP)' });
    for (const tab of ['VS Code', 'Claude Desktop']) {
      await section.getByRole('tab', { name: tab }).click();
      await expectNoSidewaysScroll(page);
    }
    await checkA11y();
    await shoot(page, 'api-keys-mcp');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shoot(page, 'api-keys-mcp');
  });
});
