import { expect } from '@playwright/test';

/** A short handbook the built-in answerer cites: the knowledge of the chat and widget tests. */
const MANUAL = [
  '# Lighthouse keeper handbook',
  '',
  '## Lamp maintenance',
  '',
  'The lamp of the Mousehole lighthouse is cleaned every Tuesday at dawn. Spare bulbs are stored in the oil room.',
  '',
  '## Visitors',
  '',
  'Visitors may climb the tower on Saturdays between 10:00 and 16:00. Children under eight are not allowed on the gallery.',
].join('\n');

/** Uploads the handbook as a Markdown file and waits until it is indexed. */
export async function uploadHandbook(
  api: {
    call: <T>(
      m: string,
      p: string,
      o?: { token?: string; form?: FormData },
    ) => Promise<{ status: number; body: T }>;
  },
  token: string,
  appId: string,
) {
  const form = new FormData();
  form.append('items[0].type', 'file');
  form.append('items[0].file', new Blob([MANUAL], { type: 'text/markdown' }), 'handbook.md');
  const added = await api.call('POST', `/api/applications/${appId}/knowledge/`, { token, form });
  expect(added.status).toBe(201);
  await expect
    .poll(async () => {
      const list = await api.call<Array<{ status: string }>>('GET', `/api/applications/${appId}/knowledge/`, {
        token,
      });
      return list.body.map((i) => i.status).join();
    })
    .toBe('ready');
}
