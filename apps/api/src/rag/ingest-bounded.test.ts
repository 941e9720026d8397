import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxBomb, pdfFlateBomb, pdfWithPages } from '../testing/hostile-files.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { DEFAULT_PARSE_LIMITS } from './parse/parse-limits.ts';

const MB = 1024 * 1024;
let t: TestApp;
let token: string;
beforeAll(async () => {
  // Limits lowered so that the files that cross them are quick to make; the defaults are crossed
  // the same way (bench/parsing uses the 400 MB bomb).
  t = await startTestApp({
    parseLimits: {
      ...DEFAULT_PARSE_LIMITS,
      maxExpandedBytes: 20 * MB,
      timeoutMs: 12_000,
      maxPdfPages: 1_000_000,
    },
  });
  token = (await t.signUp()).token;
});
afterAll(() => t.close());

type Item = { uuid: string; status: string; title: string; error: string | null };

describe('hostile files added as knowledge', () => {
  it('fail at once with a reason a person understands, while the good file beside them is indexed', async () => {
    const files: Array<[string, Buffer]> = [
      ['quarterly-report.docx', await docxBomb(48 * MB)],
      ['understated.docx', await docxBomb(48 * MB, { declaredBytes: 4096 })],
      ['scan.pdf', await pdfFlateBomb(48 * MB)],
      ['almanac.pdf', pdfWithPages(50_000)],
      ['lantern.docx', fs.readFileSync(path.join(import.meta.dirname, 'parse/fixtures/sample.docx'))],
    ];
    const form = new FormData();
    form.append('name', 'Hostile files');
    files.forEach(([name, data], i) => {
      form.append(`items[${i}].type`, 'file');
      form.append(`items[${i}].file`, new Blob([new Uint8Array(data)]), name);
    });
    const created = await t.call<{ uuid: string }>('POST', '/api/applications/', { token, form });
    expect(created.status).toBe(201);
    let items: Item[] = [];
    for (let i = 0; i < 600; i++) {
      items = (await t.call<Item[]>('GET', `/api/applications/${created.body.uuid}/knowledge/`, { token }))
        .body;
      if (items.length === files.length && items.every((x) => x.status === 'ready' || x.status === 'failed'))
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const byTitle = Object.fromEntries(items.map((item) => [item.title, item]));
    expect(byTitle['quarterly-report.docx']).toMatchObject({
      status: 'failed',
      error:
        'This file expands to more than 20 MB when unpacked, the limit for one file. Split it into smaller documents.',
    });
    expect(byTitle['understated.docx']!.error).toMatch(
      /^This file expands to more than its own table of contents says/,
    );
    expect(byTitle['scan.pdf']).toMatchObject({
      status: 'failed',
      error:
        'This PDF expands to more than 20 MB when its contents are unpacked, the limit for one file. Split it into smaller documents.',
    });
    // 50,000 pages cross the time limit on a busy machine and the memory limit first on a quiet one;
    // each limit alone is proven in parse/bounded-parsing.test.ts.
    expect(byTitle['almanac.pdf']?.status).toBe('failed');
    expect(byTitle['almanac.pdf']?.error).toMatch(
      /^Reading this file (took longer than 12 seconds|needed more than \d+ MB of memory), the limit for one file, and was stopped\. Split it into smaller documents\.$/,
    );
    expect(byTitle['Granite Lantern Handbook']?.status).toBe('ready');
    // Refused at the first attempt, not retried (how long it takes is measured in bench/parsing).
    const { rows } = await t.database.query<{ attempts: number }>(
      `SELECT attempts FROM knowledge_items WHERE status = 'failed'`,
    );
    expect(rows.map((r) => r.attempts)).toEqual([1, 1, 1, 1]);
  }, 120_000);
});
