import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docxBomb, pdfFlateBomb, pdfWithPages } from '../../testing/hostile-files.ts';
import { makeScannedPdf, pngDeclaring } from '../../testing/make-scan.ts';
import { parseRefusal } from '../../testing/parse-refusal.ts';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse-limits.ts';
import { ParseWorkers } from './parse-workers.ts';

const MB = 1024 * 1024;
const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name));

const pools: ParseWorkers[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.close())));
function workers(limits: Partial<ParseLimits> = {}) {
  const pool = new ParseWorkers({ ...DEFAULT_PARSE_LIMITS, ...limits });
  pools.push(pool);
  return pool;
}

describe('parsing in a worker', () => {
  it('parses what it parsed before, in a worker that is reused', async () => {
    const pool = workers();
    const docx = await pool.parse({ data: fixture('sample.docx'), filename: 'sample.docx' });
    expect(docx.document.title).toBe('Granite Lantern Handbook');
    const pdf = await pool.parse({ data: fixture('sample.pdf'), filename: 'sample.pdf' });
    expect(pdf.document.sections.map((s) => s.page)).toEqual([1, 2]);
    const encrypted = await parseRefusal(
      pool.parse({ data: fixture('encrypted.pdf'), filename: 'encrypted.pdf' }),
    );
    expect(encrypted.reason).toBe('encrypted');
  });

  it('refuses a .docx that expands beyond the limit, before opening it', async () => {
    const bomb = await docxBomb(48 * MB);
    expect(bomb.length).toBeLessThan(MB);
    const error = await parseRefusal(
      workers({ maxExpandedBytes: 20 * MB }).parse({ data: bomb, filename: 'report.docx' }),
    );
    expect(error.reason).toBe('too_large');
    expect(error.message).toBe(
      'This file expands to more than 20 MB when unpacked, the limit for one file. Split it into smaller documents.',
    );
  });

  it('refuses a .docx whose headers understate what it expands to', async () => {
    const liar = await docxBomb(48 * MB, { declaredBytes: 1000 });
    const error = await parseRefusal(
      workers({ maxExpandedBytes: 20 * MB }).parse({ data: liar, filename: 'report.docx' }),
    );
    expect(error.reason).toBe('too_large');
    expect(error.message).toMatch(/^This file expands to more than its own table of contents says/);
  });

  it('refuses a .docx compressed more than a document can be, whatever its size', async () => {
    const bomb = await docxBomb(16 * MB);
    const error = await parseRefusal(workers().parse({ data: bomb, filename: 'report.docx' }));
    expect(error.message).toMatch(
      /^This file expands to more than 100 times its size \([\d.]+ KB to over 16 MB\): it looks like a decompression bomb/,
    );
  });

  it('refuses a PDF whose compressed streams expand beyond the limit', async () => {
    const bomb = await pdfFlateBomb(48 * MB);
    const error = await parseRefusal(
      workers({ maxExpandedBytes: 20 * MB }).parse({ data: bomb, filename: 'scan.pdf' }),
    );
    expect(error.reason).toBe('too_large');
    expect(error.message).toBe(
      'This PDF expands to more than 20 MB when its contents are unpacked, the limit for one file. Split it into smaller documents.',
    );
    // Under the limit, the same kind of file is read (its text is on the page).
    const small = await workers({ maxExpandedBytes: 20 * MB }).parse({
      data: await pdfFlateBomb(2 * MB),
      filename: 'scan.pdf',
    });
    expect(small.document.sections[0]!.text).toContain('A page with a great deal of nothing.');
  });

  it('refuses a PDF with more pages than allowed, and reads one with as many', async () => {
    const pool = workers({ maxPdfPages: 50 });
    const error = await parseRefusal(pool.parse({ data: pdfWithPages(51), filename: 'almanac.pdf' }));
    expect(error.message).toBe(
      'This PDF has 51 pages; one file may have at most 50. Split it into smaller documents.',
    );
    const fifty = await pool.parse({ data: pdfWithPages(50), filename: 'almanac.pdf' });
    expect(fifty.document.sections).toHaveLength(50);
  });

  it('refuses a file with more text than an item may hold', async () => {
    const error = await parseRefusal(
      workers({ maxTextBytes: 1000 }).parse({
        data: Buffer.from('word '.repeat(300)),
        filename: 'notes.txt',
      }),
    );
    expect(error.message).toBe(
      'This file holds more than 1 KB of text, the limit for one item. Split it into smaller documents.',
    );
  });

  it('stops a parse that takes too long, and the next file gets a new worker', async () => {
    // Memory is not what this test is about: reading 50,000 pages passed 512 MB within 3 seconds on a
    // fast machine (CI), so the memory limit must be out of reach of 3 seconds of work.
    const pool = workers({ timeoutMs: 3000, maxPdfPages: 1_000_000, memoryMb: 8192 });
    // Tens of seconds of pdf.js work, whatever the machine.
    const error = await parseRefusal(pool.parse({ data: pdfWithPages(50_000), filename: 'almanac.pdf' }));
    expect(error.reason).toBe('too_slow');
    expect(error.message).toBe(
      'Reading this file took longer than 3 seconds, the limit for one file, and was stopped. Split it into smaller documents.',
    );
    const next = await pool.parse({ data: fixture('sample.txt'), filename: 'sample.txt' });
    expect(next.document.title).toBe('Tide table for Mousehole harbour');
  });

  it('gives a file read with OCR the OCR deadline, and refuses an image bomb in the worker', async () => {
    // A file may take 1 s here: more than twice what reading the scan's (absent) text layer took on a
    // busy machine; reading its two pages with OCR takes seconds (starting tesseract alone is about
    // one), so the read passes only if OCR got its own, longer deadline.
    const pool = workers({ timeoutMs: 1000 });
    // A warm worker with PDF.js loaded: what the file's deadline covers is the parse, not starting.
    await pool.parse({ data: pdfWithPages(1), filename: 'one.pdf' });
    const scan = await makeScannedPdf([
      ['Low tide at Mousehole harbour is at four in the afternoon.'],
      Array.from({ length: 12 }, (_, i) => `The harbour wall was repaired in the year ${1900 + i}.`),
    ]);
    const started = Date.now();
    const read = await pool.parse({ data: scan, filename: 'tides.pdf' });
    // The read did outlast a file's deadline (else this test proves nothing).
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(read.document.sections[0]).toMatchObject({
      page: 1,
      text: expect.stringMatching(/four in the afternoon/),
    });
    const bomb = await parseRefusal(
      pool.parse({ data: pngDeclaring(50_000, 50_000), filename: 'photo.png' }),
    );
    expect(bomb.message).toMatch(/^This image is 50,000 × 50,000 pixels/);
  });

  it('stops a parse that needs more memory than allowed', async () => {
    const pool = workers({ memoryMb: 64, maxTextBytes: 1024 * MB, timeoutMs: 30_000 });
    const error = await parseRefusal(
      pool.parse({
        data: Buffer.from('many words in a row\n'.repeat(4 * 1024 * 1024)),
        filename: 'huge.txt',
      }),
    );
    expect(error.reason).toBe('too_much_memory');
    expect(error.message).toBe(
      'Reading this file needed more than 64 MB of memory, the limit for one file, and was stopped. Split it into smaller documents.',
    );
  });
});
