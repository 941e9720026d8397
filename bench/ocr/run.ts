/**
 * OCR accuracy and speed (issue 23, docs/decisions/072-ocr.md): three pages of real prose
 * (prose.ts) rendered as a scanner would make them (apps/api/src/testing/make-scan.ts: US letter,
 * 12 pt serif) at 150 and 300 dpi, read the way Cairn reads them:
 *
 * - `image`: each page as a PNG file item (parseDocument → OCR of the image);
 * - `pdf`: the three pages as one scanned PDF (JPEG pages, no text layer; each page rendered at
 *   200 dpi and read).
 *
 * Prints character accuracy (1 − CER: the Levenshtein distance between what was read and the
 * text, over the text's length; whitespace runs count as one space) and seconds per page (OCR
 * engine start included, as every document pays it), in this process, one page at a time.
 *
 *   npx tsx bench/ocr/run.ts [--dpi 150,300]
 */
import { parseDocument } from '../../apps/api/src/rag/parse/parse-document.ts';
import { makeScannedPdf, renderPage } from '../../apps/api/src/testing/make-scan.ts';
import { argValue } from '../lib.ts';
import { PAGES } from './prose.ts';

const dpis = (argValue('--dpi') ?? '150,300').split(',').map(Number);

/** Whitespace runs as one space; paragraphs are compared as one stream of text. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Edit distance (insertions, deletions, substitutions), two rows at a time. */
function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

function accuracy(read: string[], truth: string[][]): number {
  let errors = 0;
  let chars = 0;
  truth.forEach((paragraphs, i) => {
    const expected = flat(paragraphs.join(' '));
    errors += levenshtein(flat(read[i] ?? ''), expected);
    chars += expected.length;
  });
  return 1 - errors / chars;
}

const rows: string[][] = [];
for (const dpi of dpis) {
  // Images: one document per page.
  const imageTexts: string[] = [];
  let started = performance.now();
  for (const [i, page] of PAGES.entries()) {
    const png = await renderPage(page, { dpi }).png();
    const { document } = await parseDocument({ data: png, filename: `page-${i + 1}.png` });
    imageTexts.push(document.sections.map((s) => s.text).join(' '));
  }
  const imageSeconds = (performance.now() - started) / 1000 / PAGES.length;
  rows.push([`image (PNG) ${dpi} dpi`, accuracy(imageTexts, PAGES).toFixed(4), imageSeconds.toFixed(2)]);

  // A scanned PDF: one document, every page.
  const pdf = await makeScannedPdf(PAGES, dpi);
  started = performance.now();
  const { document } = await parseDocument({ data: pdf, filename: 'scan.pdf' });
  const pdfSeconds = (performance.now() - started) / 1000 / PAGES.length;
  const byPage = PAGES.map((_, i) =>
    document.sections
      .filter((s) => s.page === i + 1)
      .map((s) => s.text)
      .join(' '),
  );
  rows.push([`scanned PDF ${dpi} dpi`, accuracy(byPage, PAGES).toFixed(4), pdfSeconds.toFixed(2)]);
}

const chars = PAGES.reduce((n, page) => n + flat(page.join(' ')).length, 0);
console.log(`${PAGES.length} pages, ${chars} characters of prose\n`);
console.log('| input | character accuracy (1 − CER) | seconds per page |');
console.log('|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
