import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { type FakeOpenAI, startFakeOpenAI } from '../apps/api/src/testing/fake-openai-server';
import { type apiHelpers, expect, type TestUser, test } from './fixtures';

/**
 * What people put in their knowledge, quoted back in answers: long identifiers, URLs and headings
 * that must wrap on a phone, and text in angle brackets that must be shown as written.
 */
type Api = ReturnType<typeof apiHelpers>;

const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** A one-page PDF whose text layer holds `lines`, one per line (Helvetica, no dependencies). */
function pdfWithText(lines: string[]): Uint8Array<ArrayBuffer> {
  const escapePdf = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = ['BT /F1 11 Tf 14 TL 50 760 Td', ...lines.map((l) => `(${escapePdf(l)}) Tj T*`), 'ET'].join(
    '\n',
  );
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

type KnowledgeInput =
  | { type: 'text'; title: string; value: string }
  | { type: 'file'; name: string; data: Uint8Array<ArrayBuffer> | string; mime: string };

/** Adds knowledge through the API and waits until every item is indexed; returns the items' uuids. */
async function addKnowledge(api: Api, user: TestUser, appId: string, items: KnowledgeInput[]) {
  const form = new FormData();
  items.forEach((item, i) => {
    form.append(`items[${i}].type`, item.type);
    if (item.type === 'text') {
      form.append(`items[${i}].title`, item.title);
      form.append(`items[${i}].value`, item.value);
    } else {
      form.append(`items[${i}].file`, new Blob([item.data], { type: item.mime }), item.name);
    }
  });
  const added = await api.call('POST', `/api/applications/${appId}/knowledge/`, { token: user.token, form });
  expect(added.status).toBe(201);
  let list: Array<{ uuid: string; title: string; status: string }> = [];
  await expect
    .poll(async () => {
      list = (
        await api.call<typeof list>('GET', `/api/applications/${appId}/knowledge/`, { token: user.token })
      ).body;
      return list.map((i) => i.status).join();
    })
    .toBe(items.map(() => 'ready').join());
  return list;
}

interface StoredMessage {
  sender_identifier: string;
  message: string;
  status: string;
}

async function messagesOf(api: Api, user: TestUser, appId: string, roomId: string) {
  const res = await api.call<{ messages: StoredMessage[] }>(
    'GET',
    `/api/applications/${appId}/chatrooms/${roomId}/messages/`,
    { token: user.token },
  );
  return res.body.messages;
}

/** Asks through the API and waits for the stored answer; returns the chatroom. */
async function ask(api: Api, user: TestUser, appId: string, room: string, question: string) {
  const me = await api.call<{ id: number }>('GET', '/api/me/', { token: user.token });
  const sent = await api.call<{ chatroom: { uuid: string } }>(
    'POST',
    `/api/applications/${appId}/chatrooms/send-message/`,
    {
      token: user.token,
      json: { chatroom_identifier: room, message: question, sender_identifier: `reg_${me.body.id}` },
    },
  );
  expect(sent.status).toBe(201);
  const roomId = sent.body.chatroom.uuid;
  await expect
    .poll(async () => (await messagesOf(api, user, appId, roomId)).at(-1)?.status, { timeout: 20_000 })
    .toBe('complete');
  return roomId;
}

/**
 * The page does not scroll sideways, and no box in `main` lies past the right edge (so nothing is
 * cut off by clipping either), except inside a box that scrolls itself (a code block, a table).
 */
async function expectNothingCutOff(page: Page) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const outside = await page.evaluate(() => {
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const insideScroller = (el: Element) => {
      for (let up = el.parentElement; up && up.tagName !== 'MAIN'; up = up.parentElement) {
        if (scrolls(up)) return true;
      }
      return false;
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll('main *')) {
      if (insideScroller(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > window.innerWidth + 0.5) {
        out.push(
          `${el.tagName.toLowerCase()} right=${Math.round(box.right)}: ${el.textContent?.slice(0, 60)}`,
        );
      }
    }
    return out;
  });
  expect(outside, `boxes past the right edge at ${width} px`).toEqual([]);
}

const LONG_IDENTIFIER = 'ASN1_ELEMENT_NOT_FOUND_IN_CERTIFICATE_CHAIN_WHILE_VERIFYING_UPSTREAM_GATEWAY';
const LONG_URL =
  'https://downloads.example.com/certificates/intermediate/2024/regional-gateways/europe-west/intermediate-ca-bundle-full-chain.pem';
const LONG_WORD =
  'Pneumonoultramicroscopicsilicovolcanoconiosisantidisestablishmentarianismfloccinaucinihilipilification';
const LONG_HEADING =
  'Error_ASN1_ELEMENT_NOT_FOUND_while_parsing_the_certificate_chain_of_the_upstream_gateway';
const LONG_TITLE = 'Gateway_certificate_chain_troubleshooting_reference_for_the_ASN1_parser_module';
const LONG_ROOM =
  'Certificate_chain_failures_on_the_upstream_gateway_ASN1_ELEMENT_NOT_FOUND_and_friends_in_production_since_the_last_release';

const TROUBLESHOOTING = [
  `# ${LONG_TITLE}`,
  '',
  `## ${LONG_HEADING}`,
  '',
  `The gateway raises \`${LONG_IDENTIFIER}\` when the certificate chain is incomplete.`,
  `Download the intermediate bundle from ${LONG_URL} and restart the gateway.`,
  `Operators sometimes call this the ${LONG_WORD} of certificate errors.`,
].join('\n');

/** A model's answer using every wide construct markdown has. */
const WIDE_ANSWER = [
  `The gateway fails with \`${LONG_IDENTIFIER}\` when the chain is incomplete [1].`,
  '',
  `Get the bundle at ${LONG_URL} or <${LONG_URL}> ([the bundle](${LONG_URL})).`,
  '',
  '```sh',
  'openssl verify -CAfile /etc/gateway/certificates/intermediate-ca-bundle-full-chain.pem -untrusted /etc/gateway/certificates/upstream-leaf-certificate.pem /etc/gateway/certificates/upstream.pem',
  '```',
  '',
  '| setting | value | default |',
  '|---|---|---|',
  '| gateway.tls.certificate_chain_verification_mode_for_upstream_connections | strict_with_intermediate_bundle_fallback | strict |',
  '',
  `### ${LONG_HEADING}`,
  '',
  `> ${LONG_WORD} [1]`,
  '',
  `- ${LONG_IDENTIFIER}`,
].join('\n');

test.describe('chat content', () => {
  test('a long conversation with long identifiers, URLs, headings and code fits a phone', async ({
    page,
    context,
    server,
    api,
    signIn,
  }) => {
    test.setTimeout(180_000);
    let fake: FakeOpenAI | undefined;
    try {
      const user = await signIn(await api.newUser('chat-wide'));
      const app = await user.createApplication(`Gateway ${LONG_WORD}`);
      await addKnowledge(api, user, app.uuid, [
        { type: 'file', name: 'troubleshooting.md', data: TROUBLESHOOTING, mime: 'text/markdown' },
      ]);

      // 24 questions answered by the built-in answerer, which quotes the long passage.
      let room = 'new_chat';
      for (let i = 1; i <= 24; i++) {
        room = await ask(api, user, app.uuid, room, `Why does the gateway raise ${LONG_IDENTIFIER}? (${i})`);
      }
      const renamed = await api.call('PATCH', `/api/applications/${app.uuid}/chatrooms/${room}/`, {
        token: user.token,
        json: { name: LONG_ROOM },
      });
      expect(renamed.status).toBe(200);

      // The 25th answer comes from a model and uses code, a table, a heading, a quote and a list.
      fake = await startFakeOpenAI({ models: ['fake-chat'], reply: WIDE_ANSWER });
      const provider = await api.call<{ uuid: string }>('POST', '/api/model-providers/', {
        token: user.token,
        json: { kind: 'openai_compatible', name: 'Local', base_url: fake.url },
      });
      const model = await api.call<{ uuid: string }>(
        'POST',
        `/api/model-providers/${provider.body.uuid}/models/`,
        { token: user.token, json: { name: 'fake-chat', model_type: 'text' } },
      );
      await api.call('PATCH', `/api/applications/${app.uuid}/`, {
        token: user.token,
        json: { llm_models: [model.body.uuid, 'builtin-embedding'] },
      });
      await ask(api, user, app.uuid, room, `${LONG_WORD}: how do I verify the gateway certificate chain?`);
      expect(await messagesOf(api, user, app.uuid, room)).toHaveLength(50);

      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      for (const width of [375, 320]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`/applications/${app.uuid}/messages/${room}`);
        await expect(page.getByRole('heading', { level: 1, name: LONG_ROOM })).toBeVisible();
        const answers = page.getByRole('listitem', { name: 'Answer' });
        await expect(answers).toHaveCount(25);
        await expect(answers.first()).toContainText(LONG_IDENTIFIER);
        await expect(answers.first().getByRole('button', { name: /^\[1\]/ })).toContainText(LONG_HEADING);
        await expect(answers.last().locator('pre')).toBeVisible();
        await expect(answers.last().locator('table')).toBeVisible();
        await expectNothingCutOff(page);
        // Code and tables scroll inside themselves, never the page.
        const codeScrolls = await answers
          .last()
          .locator('pre')
          .evaluate((pre) => pre.scrollWidth > pre.clientWidth);
        expect(codeScrolls).toBe(true);

        if (width === 375) {
          for (const mode of ['dark', 'light'] as const) {
            await context.addCookies([{ name: 'theme', value: `gray.${mode}`, url: server.url }]);
            await page.reload();
            await expect(page.locator('html')).toHaveAttribute('data-mode', mode);
            await expect(answers).toHaveCount(25);
            // The view scrolls to the newest message once it has loaded: scroll back after that.
            await expect
              .poll(async () => {
                await page.evaluate(() => window.scrollTo(0, 0));
                await page.waitForTimeout(300);
                return page.evaluate(() => window.scrollY);
              })
              .toBe(0);
            await page.screenshot({ path: path.join(SCREENSHOTS, `messages-long-top-375-${mode}.png`) });
            await answers.last().scrollIntoViewIfNeeded();
            await page.screenshot({ path: path.join(SCREENSHOTS, `messages-long-375-${mode}.png`) });
          }

          // The cited passage and the drawer's chatroom list fit as well.
          await answers
            .first()
            .getByRole('button', { name: /^Source 1:/ })
            .click();
          const dialog = page.getByRole('dialog');
          await expect(dialog).toContainText(LONG_URL);
          const dialogFits = await dialog.evaluate(
            (d) => d.scrollWidth <= d.clientWidth && d.getBoundingClientRect().right <= window.innerWidth,
          );
          expect(dialogFits).toBe(true);
          await page.screenshot({ path: path.join(SCREENSHOTS, 'messages-long-citation-375-light.png') });
          await page.keyboard.press('Escape');
          await page.getByRole('button', { name: 'Open navigation' }).click();
          const drawer = page.getByRole('dialog', { name: 'Navigation' });
          await expect(drawer.getByRole('list', { name: 'Chatrooms' })).toContainText(LONG_ROOM.slice(0, 20));
          expect(await drawer.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
          await page.keyboard.press('Escape');
        }
      }

      await page.setViewportSize({ width: 1280, height: 800 });
      await page.reload();
      await expect(page.getByRole('listitem', { name: 'Answer' })).toHaveCount(25);
      await expectNothingCutOff(page);
      await page.getByRole('listitem', { name: 'Answer' }).last().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'messages-long-1280-light.png') });
    } finally {
      await fake?.close();
    }
  });

  test('text in angle brackets survives upload, search, answers and every view of it', async ({
    page,
    api,
    signIn,
  }) => {
    const user = await signIn(await api.newUser('chat-angle'));
    const app = await user.createApplication('Zoo records');
    const items = await addKnowledge(api, user, app.uuid, [
      { type: 'text', title: 'Zebra notes', value: 'Zebras have <MIME> type tags on their collars.' },
      {
        type: 'file',
        name: 'paths.pdf',
        mime: 'application/pdf',
        data: pdfWithText(['Attachment paths shown with the prefix <MIME> indicate a typed attachment.']),
      },
    ]);

    // Stored passages and search results keep the text.
    for (const item of items) {
      const detail = await api.call<{ chunks: Array<{ content: string }> }>(
        'GET',
        `/api/applications/${app.uuid}/knowledge/${item.uuid}/`,
        { token: user.token },
      );
      expect(detail.body.chunks.map((c) => c.content).join(' ')).toContain('<MIME>');
    }
    const search = await api.call<{ results: Array<{ content: string }> }>(
      'POST',
      `/api/applications/${app.uuid}/knowledge/search/`,
      { token: user.token, json: { query: 'zebras type tags', top_k: 3 } },
    );
    expect(search.body.results[0]?.content).toContain('Zebras have <MIME> type tags');

    await page.goto(`/applications/${app.uuid}/messages/new_chat`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Which type tags do zebras have?');
    await box.press('Enter');
    const answers = page.getByRole('listitem', { name: 'Answer' });
    await expect(answers.first()).toContainText('Zebras have <MIME> type tags on their collars.');
    await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const roomId = page.url().split('/').at(-1)!;

    await box.fill('What do attachment paths shown with the prefix indicate?');
    await box.press('Enter');
    await expect(answers.nth(1)).toContainText(
      'Attachment paths shown with the prefix <MIME> indicate a typed attachment.',
    );
    const stored = await messagesOf(api, user, app.uuid, roomId);
    expect(stored.filter((m) => m.message.includes('<MIME>'))).toHaveLength(2);

    // The same after a reload (server-rendered), in the cited passage and in the item's preview.
    await page.reload();
    await expect(answers.first()).toContainText('Zebras have <MIME> type tags');
    await expect(answers.nth(1)).toContainText('prefix <MIME> indicate');
    await answers
      .first()
      .getByRole('button', { name: /^Source 1: Zebra notes/ })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Zebras have <MIME> type tags');
    await dialog.getByRole('link', { name: 'Open in knowledge base' }).click();
    await expect(page.getByRole('dialog', { name: 'Zebra notes' })).toContainText(
      'Zebras have <MIME> type tags',
    );
  });

  test('HTML in knowledge and in a model answer is shown as text and never runs', async ({
    page,
    api,
    signIn,
  }) => {
    let fake: FakeOpenAI | undefined;
    try {
      const user = await signIn(await api.newUser('chat-hostile'));
      const app = await user.createApplication('Hostile');
      const hostile = 'Parrots say <img src=x onerror=alert(1)> and <script>alert(2)</script> loudly.';
      await addKnowledge(api, user, app.uuid, [{ type: 'text', title: 'Parrot notes', value: hostile }]);
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });

      await page.goto(`/applications/${app.uuid}/messages/new_chat`);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('What do parrots say?');
      await box.press('Enter');
      const answers = page.getByRole('listitem', { name: 'Answer' });
      await expect(answers.first()).toContainText(hostile);
      await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);

      // A model writing HTML blocks of its own: shown as written, too.
      fake = await startFakeOpenAI({
        models: ['fake-chat'],
        reply: '<script>alert(3)</script>\n\n<img src=x onerror=alert(4)>\n\nParrots say <b>hello</b> [1].',
      });
      const provider = await api.call<{ uuid: string }>('POST', '/api/model-providers/', {
        token: user.token,
        json: { kind: 'openai_compatible', name: 'Local', base_url: fake.url },
      });
      const model = await api.call<{ uuid: string }>(
        'POST',
        `/api/model-providers/${provider.body.uuid}/models/`,
        { token: user.token, json: { name: 'fake-chat', model_type: 'text' } },
      );
      await api.call('PATCH', `/api/applications/${app.uuid}/`, {
        token: user.token,
        json: { llm_models: [model.body.uuid, 'builtin-embedding'] },
      });
      await box.fill('What else do parrots say?');
      await box.press('Enter');
      await expect(answers.nth(1)).toContainText('Parrots say <b>hello</b>');
      await expect(answers.nth(1)).toContainText('<script>alert(3)</script>');
      await expect(answers.nth(1)).toContainText('<img src=x onerror=alert(4)>');

      await page.reload();
      await expect(answers.first()).toContainText(hostile);
      await expect(answers.nth(1)).toContainText('<img src=x onerror=alert(4)>');
      await expect(page.getByRole('list', { name: 'Messages' }).locator('img, script, b')).toHaveCount(0);
      expect(dialogs).toEqual([]);
    } finally {
      await fake?.close();
    }
  });
});
