import { describe, expect, it } from 'vitest';
import { makeScannedPdf, pngDeclaring, renderPage } from '../../testing/make-scan.ts';
import { parseRefusal } from '../../testing/parse-refusal.ts';
import { parseDocument } from './parse-document.ts';
import { DEFAULT_PARSE_LIMITS } from './parse-limits.ts';

const LIGHTHOUSE = [
  'The lighthouse on Ardmore Point was built in 1874 from granite quarried on the island.',
  'Visitors may climb its tower from May to October, every day but Tuesday.',
];
const FERRY = ['The ferry to the island leaves the harbour at nine in the morning and returns at five.'];

describe('reading scans with OCR', () => {
  it('reads a PDF of scanned pages page by page, and says so', async () => {
    const pdf = await makeScannedPdf([LIGHTHOUSE, FERRY]);
    const { document, kind } = await parseDocument({ data: pdf, filename: 'brochure.pdf' });
    expect(kind).toBe('pdf');
    expect(document.readWithOcr).toBe(true);
    expect(document.sections.map((s) => s.page)).toEqual([1, 2]);
    expect(document.sections[0]!.text).toMatch(/climb its tower from May to October/);
    expect(document.sections[1]!.text).toMatch(/ferry to the island leaves the harbour at nine/);
    // One paragraph per paragraph, its lines joined.
    expect(document.sections[0]!.text.split('\n\n')).toHaveLength(2);
  });

  it('reads PNG, JPEG and WebP images, titled by their file name', async () => {
    const page = renderPage(LIGHTHOUSE, { dpi: 150 });
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const image = await loadImage(await page.png());
    const canvas = createCanvas(image.width, image.height);
    canvas.getContext('2d').drawImage(image, 0, 0);
    for (const [filename, data, mimeType] of [
      ['leaflet.png', await page.png(), 'image/png'],
      ['leaflet.jpg', await page.jpeg(), 'image/jpeg'],
      ['leaflet.webp', await canvas.encode('webp', 95), 'image/webp'],
    ] as const) {
      const result = await parseDocument({ data, filename });
      expect(result.kind).toBe('image');
      expect(result.mimeType).toBe(mimeType);
      expect(result.document.title).toBe('leaflet');
      expect(result.document.readWithOcr).toBe(true);
      expect(result.document.sections).toHaveLength(1);
      expect(result.document.sections[0]!.page).toBeUndefined();
      expect(result.document.sections[0]!.text).toMatch(/built in 1874 from granite/);
    }
  });

  it('refuses an image that declares more pixels than allowed, before decoding it', async () => {
    const bomb = pngDeclaring(50_000, 50_000);
    expect(bomb.length).toBeLessThan(200);
    const error = await parseRefusal(parseDocument({ data: bomb, filename: 'photo.png' }));
    expect(error.reason).toBe('too_large');
    expect(error.message).toBe(
      'This image is 50,000 × 50,000 pixels; an image read with OCR may have at most 25 million pixels. Scale it down and upload it again.',
    );
  });

  it('refuses a scanned PDF holding an image that declares more pixels than allowed, before rendering it', async () => {
    const scan = (await makeScannedPdf([FERRY], 50)).toString('latin1');
    const bomb = Buffer.from(
      scan.replace(/\/Width \d+ \/Height \d+/, '/Width 50000 /Height 50000'),
      'latin1',
    );
    const error = await parseRefusal(parseDocument({ data: bomb, filename: 'scan.pdf' }));
    expect(error.message).toBe(
      'This PDF holds an image of 50,000 × 50,000 pixels; an image read with OCR may have at most 25 million pixels. Scale it down and upload it again.',
    );
  });

  it('refuses a corrupt image, an image too large, and an image named as something else', async () => {
    const png = await renderPage(FERRY, { dpi: 100 }).png();
    const cut = await parseRefusal(parseDocument({ data: png.subarray(0, 300), filename: 'photo.png' }));
    expect(cut.reason).toBe('corrupt');
    expect(cut.message).toBe('This image is corrupt or incomplete and cannot be read.');
    const large = await parseRefusal(
      parseDocument({ data: png, filename: 'photo.png' }, { ...DEFAULT_PARSE_LIMITS, maxImageBytes: 1000 }),
    );
    expect(large.reason).toBe('too_large');
    expect(large.message).toMatch(/^This image is \d+ KB; an image may be at most 1 KB\./);
    const named = await parseRefusal(parseDocument({ data: png, filename: 'notes.txt' }));
    expect(named.message).toBe('The file is named .txt but its content is an image.');
    // A 1 × 1 GIF.
    const gif = await parseRefusal(
      parseDocument({
        data: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
        filename: 'a.gif',
      }),
    );
    expect(gif.message).toBe(
      'Unsupported file type: the content is a GIF image, not a PDF, Word, text, Markdown, HTML or image (PNG, JPEG, WebP) file.',
    );
  });

  it('refuses a scanned PDF with more pages than OCR reads, before reading any', async () => {
    const pdf = await makeScannedPdf([FERRY, FERRY, FERRY], 50);
    let started = false;
    const error = await parseRefusal(
      parseDocument({ data: pdf, filename: 'scan.pdf' }, { ...DEFAULT_PARSE_LIMITS, maxOcrPages: 2 }, () => {
        started = true;
      }),
    );
    expect(error.reason).toBe('too_large');
    expect(error.message).toBe(
      'This PDF has 3 scanned pages (pages without text); at most 2 pages of one file are read with OCR (text recognition). Split it into smaller documents.',
    );
    expect(started).toBe(false);
  });

  it('stops a page that takes longer than a page may', async () => {
    const pdf = await makeScannedPdf([LIGHTHOUSE]);
    const error = await parseRefusal(
      parseDocument({ data: pdf, filename: 'scan.pdf' }, { ...DEFAULT_PARSE_LIMITS, ocrPageMs: 1 }),
    );
    expect(error.reason).toBe('too_slow');
    expect(error.message).toBe(
      'Reading page 1 with OCR (text recognition) took longer than 0 seconds, the limit for one page, and was stopped.',
    );
  });
});
