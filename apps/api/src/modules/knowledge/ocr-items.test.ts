import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChatSocket } from '../../testing/chat-socket.ts';
import { makeScannedPdf, pngDeclaring, renderPage } from '../../testing/make-scan.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitFor } from '../../testing/wait-for.ts';

type Item = { uuid: string; title: string; status: string; error: string | null; read_with_ocr: boolean };

let t: TestApp;
let owner: { token: string; user: { id: number } };
beforeAll(async () => {
  t = await startTestApp();
  owner = await t.signUp();
});
afterAll(() => t.close());

async function addFiles(files: Array<[string, Buffer]>): Promise<{ appUuid: string; items: Item[] }> {
  const form = new FormData();
  form.append('name', 'Brochures');
  files.forEach(([name, data], i) => {
    form.append(`items[${i}].type`, 'file');
    form.append(`items[${i}].file`, new Blob([new Uint8Array(data)]), name);
  });
  const created = await t.call('POST', '/api/applications/', { token: owner.token, form });
  expect(created.status).toBe(201);
  const appUuid = created.body.uuid as string;
  const items = await waitFor(
    async () =>
      (await t.call<Item[]>('GET', `/api/applications/${appUuid}/knowledge/`, { token: owner.token })).body,
    {
      until: (body) =>
        body.length === files.length && body.every((x) => x.status === 'ready' || x.status === 'failed'),
      what: 'the items to settle',
      timeoutMs: 120_000,
      intervalMs: 200,
    },
  );
  return { appUuid, items };
}

async function ask(appUuid: string, message: string) {
  const tab = await openChatSocket(t.url, owner.token);
  const sent = await t.call('POST', `/api/applications/${appUuid}/chatrooms/send-message/`, {
    token: owner.token,
    json: {
      chatroom_identifier: 'new_chat',
      message,
      sender_identifier: `reg_${owner.user.id}`,
      metadata: { source: 'web' },
      send_to_user: false,
    },
  });
  expect(sent.status).toBe(201);
  const answer = await tab.finalOf(sent.body.answer.uuid);
  tab.close();
  return { message: answer.message, sources: answer.metadata.sources as Array<Record<string, unknown>> };
}

describe('knowledge read with OCR', () => {
  it('answers from a scanned PDF and a photo of a page, citing the page', async () => {
    const pdf = await makeScannedPdf([
      ['Ardmore Island visitor guide. Welcome to the island and its harbour.'],
      [
        'The lighthouse tower is open to visitors from May to October. Tickets cost six pounds at the harbour office.',
      ],
    ]);
    const png = await renderPage(
      ['The island bakery sells saffron buns every Saturday morning until noon.'],
      {
        dpi: 150,
      },
    ).png();
    const { appUuid, items } = await addFiles([
      ['guide.pdf', pdf],
      ['bakery.png', png],
    ]);
    expect(items.map((i) => [i.title, i.status, i.error, i.read_with_ocr])).toEqual([
      ['guide', 'ready', null, true],
      ['bakery', 'ready', null, true],
    ]);

    const tower = await ask(appUuid, 'How much do tickets for the lighthouse tower cost?');
    expect(tower.message).toMatch(/six pounds/);
    expect(tower.sources[0]).toMatchObject({ item_title: 'guide', page: 2 });

    const buns = await ask(appUuid, 'When does the bakery sell saffron buns?');
    expect(buns.message).toMatch(/Saturday morning/);
    expect(buns.sources[0]).toMatchObject({ item_title: 'bakery', page: null });
    // OCR is seconds of CPU a page, on a machine that may be busy.
  }, 180_000);

  it('refuses an image bomb and a corrupt image with a reason in words; a text file is not read with OCR', async () => {
    const { items } = await addFiles([
      ['huge.png', pngDeclaring(50_000, 50_000)],
      ['cut.jpg', (await renderPage(['A page cut short.'], { dpi: 100 }).jpeg()).subarray(0, 2000)],
      ['notes.txt', Buffer.from('Plain notes about the ferry timetable.')],
    ]);
    expect(items.map((i) => [i.status, i.error, i.read_with_ocr])).toEqual([
      [
        'failed',
        'This image is 50,000 × 50,000 pixels; an image read with OCR may have at most 25 million pixels. Scale it down and upload it again.',
        false,
      ],
      ['failed', 'This image is corrupt or incomplete and cannot be read.', false],
      ['ready', null, false],
    ]);
  });
});
