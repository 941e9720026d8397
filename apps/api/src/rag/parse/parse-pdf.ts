import { getDocumentProxy, getMeta } from 'unpdf';
import type { ParsedDocument } from '../types.ts';
import { joinLines, normalizeText } from './decode-text.ts';
import type { OcrLimits } from './ocr.ts';
import { ParseError } from './parse-error.ts';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** How pages without a text layer are read with OCR. */
export interface PdfOcr {
  limits: OcrLimits;
  /** Called before the first page is read (the worker's deadline grows to the OCR one). */
  started: () => void;
}

/** One line of a page's text layer, top to bottom. */
interface PdfTextLine {
  text: string;
  /** Font size in points (of the line's longest run of text). */
  size: number;
  /** Baseline, in points from the bottom of the page. */
  y: number;
}

/** An entry of the PDF's outline (bookmarks): its title and depth (1 = top level). */
interface PdfOutlineEntry {
  title: string;
  level: number;
}

/**
 * PDF → one markdown section per page (pages keep their number for citations). Headings are
 * real headings only: lines set larger than the body text, and lines that are entries of the
 * PDF's outline on their page; everything else is body text, so a passage never takes a body line
 * as its section. The lines of a paragraph are joined (a PDF breaks lines where the page ran
 * out of width, not where the author did). Pages without a text layer are read with OCR
 * (docs/decisions/072-ocr.md).
 */
export async function parsePdf(data: Buffer, ocr: PdfOcr): Promise<ParsedDocument> {
  let pdf: PdfDocument;
  try {
    // pdf.js takes ownership of the array it is given: pass a copy, never the caller's buffer.
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
  } catch (error) {
    throw pdfError(error);
  }
  try {
    const pages = await readLines(pdf).catch((error: unknown) => {
      throw pdfError(error);
    });
    const outline = await outlineByPage(pdf).catch(() => new Map<number, PdfOutlineEntry[]>());
    const texts = pdfMarkdown(pages, outline).map((pageText, index) => ({
      text: normalizeText(pageText),
      page: index + 1,
    }));
    let sections = texts.filter((section) => section.text.length > 0);
    // Pages without a text layer are scans (or blank): they are read with OCR.
    const scanned = texts.filter((section) => section.text.length === 0).map((section) => section.page);
    let readWithOcr = false;
    if (scanned.length > 0) {
      const { ocrPdfPages } = await import('./ocr-pdf.ts');
      const read = await ocrPdfPages(data, scanned, ocr.limits, ocr.started);
      readWithOcr = read.length > 0;
      sections = [...sections, ...read].sort((a, b) => a.page - b.page);
    }
    if (sections.length === 0) {
      throw new ParseError(
        'no_text_layer',
        pdf.numPages === 0
          ? 'This PDF has no pages.'
          : 'This PDF has no text layer, and reading its pages with OCR (text recognition) found no text either.',
      );
    }
    const meta = await getMeta(pdf).catch(() => undefined);
    const info = meta?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' ? info.Title.trim() : '';
    return { title, sections, readWithOcr };
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

/**
 * Every page's text layer as lines, with each line's font size and position. Pages are read
 * together, as unpdf's extractText does: pdf.js interleaves their work (read in turn, a 200-page
 * PDF took about 1.5× as long).
 */
async function readLines(pdf: PdfDocument): Promise<PdfTextLine[][]> {
  return Promise.all(
    Array.from({ length: pdf.numPages }, async (_, index) => {
      const page = await pdf.getPage(index + 1);
      return linesOf((await page.getTextContent()).items);
    }),
  );
}

type TextContentItem = Awaited<
  ReturnType<Awaited<ReturnType<PdfDocument['getPage']>>['getTextContent']>
>['items'][number];

function linesOf(items: TextContentItem[]): PdfTextLine[] {
  const lines: PdfTextLine[] = [];
  let line: PdfTextLine | undefined;
  let longest = 0;
  for (const item of items) {
    if (!('str' in item)) continue;
    const size = Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) || item.height;
    const y = item.transform[5] ?? 0;
    // A new line starts after an end-of-line mark, or where the text moves to another baseline.
    if (line && item.str !== '' && Math.abs(line.y - y) > Math.max(line.size, size) / 2) {
      lines.push(line);
      line = undefined;
    }
    if (item.str !== '') {
      if (!line) {
        line = { text: item.str, size, y };
        longest = item.str.length;
      } else {
        line.text += item.str;
        // The line's size is that of its longest run: a drop cap does not make it a heading.
        if (item.str.length > longest) {
          line.size = size;
          longest = item.str.length;
        }
      }
    }
    if (item.hasEOL && line) {
      lines.push(line);
      line = undefined;
    }
  }
  if (line) lines.push(line);
  return lines.filter((l) => l.text.trim() !== '');
}

/** Outline entries we follow at most: a bound on the work a hostile outline can cause. */
const MAX_OUTLINE_ENTRIES = 2_000;

/** The outline's entries by the 1-based page they point at (entries that point nowhere are skipped). */
async function outlineByPage(pdf: PdfDocument): Promise<Map<number, PdfOutlineEntry[]>> {
  const byPage = new Map<number, PdfOutlineEntry[]>();
  const outline = await pdf.getOutline();
  let budget = MAX_OUTLINE_ENTRIES;
  const walk = async (items: typeof outline, level: number) => {
    for (const item of items ?? []) {
      if (budget-- <= 0) return;
      const dest = typeof item.dest === 'string' ? await pdf.getDestination(item.dest) : item.dest;
      const target = Array.isArray(dest) ? dest[0] : undefined;
      const pageIndex =
        typeof target === 'number'
          ? target
          : target && typeof target === 'object'
            ? await pdf.getPageIndex(target as Parameters<PdfDocument['getPageIndex']>[0]).catch(() => -1)
            : -1;
      if (pageIndex >= 0 && item.title.trim()) {
        const entries = byPage.get(pageIndex + 1) ?? [];
        entries.push({ title: item.title, level });
        byPage.set(pageIndex + 1, entries);
      }
      await walk(item.items, level + 1);
    }
  };
  await walk(outline, 1);
  return byPage;
}

/** A line this much larger than the body text is a heading. */
const HEADING_SIZE_RATIO = 1.15;
/** Longer lines are text set large (a pull quote, a slide's body), not headings. */
const MAX_HEADING_CHARS = 150;
/** A gap between lines larger than this many times the font size separates paragraphs. */
const PARAGRAPH_GAP = 1.6;
const LIST_ITEM = /^\s*(?:[•◦▪‣∙·*-]|\d{1,3}[.)]|[a-z][.)])\s/u;

/**
 * The pages' lines as markdown: headings as `#` lines (outline entries at their outline depth,
 * other larger type by size, the largest at level 1), the lines of each paragraph joined into one, paragraphs
 * separated by a blank line, and body text that would read as markdown structure (`# …`, a code
 * fence) escaped so the chunker does not take it for a heading.
 */
function pdfMarkdown(pages: PdfTextLine[][], outline: Map<number, PdfOutlineEntry[]>): string[] {
  const bodySize = dominantSize(pages);
  const largerSizes = [
    ...new Set(
      pages
        .flat()
        .filter((line) => isLargeHeading(line, bodySize))
        .map((line) => roundSize(line.size)),
    ),
  ].sort((a, b) => b - a);
  const headingOf = (line: PdfTextLine, page: number): { level: number; outlined: boolean } | undefined => {
    const key = comparable(line.text);
    const entry = key ? outline.get(page)?.find((e) => comparable(e.title) === key) : undefined;
    if (entry) return { level: Math.min(entry.level, 6), outlined: true };
    if (!isLargeHeading(line, bodySize)) return undefined;
    return { level: Math.min(largerSizes.indexOf(roundSize(line.size)) + 1, 6), outlined: false };
  };

  return pages.map((lines, index) => {
    const out: string[] = [];
    let paragraph = '';
    let previous: { line: PdfTextLine; level: number | undefined } | undefined;
    const endParagraph = () => {
      if (paragraph) out.push(escapeMarkdownStructure(paragraph), '');
      paragraph = '';
    };
    for (const line of lines) {
      const text = line.text.replace(/\s+/g, ' ').trim();
      const heading = headingOf(line, index + 1);
      if (heading) {
        // A heading set over two lines continues the one above it (an outline entry is its own).
        if (!heading.outlined && previous?.level === heading.level && !newParagraph(previous.line, line)) {
          out[out.length - 2] = `${out.at(-2)} ${text}`;
        } else {
          endParagraph();
          out.push(`${'#'.repeat(heading.level)} ${text}`, '');
        }
      } else if (
        !paragraph ||
        !previous ||
        previous.level !== undefined ||
        newParagraph(previous.line, line) ||
        LIST_ITEM.test(text)
      ) {
        endParagraph();
        paragraph = text;
      } else {
        paragraph = joinLines(paragraph, text);
      }
      previous = { line, level: heading?.level };
    }
    endParagraph();
    return out.join('\n');
  });
}

/** The font size most of the text is set in (by characters). */
function dominantSize(pages: PdfTextLine[][]): number {
  const chars = new Map<number, number>();
  for (const line of pages.flat()) {
    const size = roundSize(line.size);
    chars.set(size, (chars.get(size) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestChars = -1;
  for (const [size, count] of chars) {
    if (count > bestChars || (count === bestChars && size < best)) {
      best = size;
      bestChars = count;
    }
  }
  return best;
}

function isLargeHeading(line: PdfTextLine, bodySize: number): boolean {
  const text = line.text.trim();
  return (
    bodySize > 0 &&
    line.size >= bodySize * HEADING_SIZE_RATIO &&
    text.length <= MAX_HEADING_CHARS &&
    // Two letters at least: a drop cap or a large numeral is not a heading.
    /\p{L}.*\p{L}/u.test(text)
  );
}

const roundSize = (size: number) => Math.round(size * 2) / 2;

/** Letters and digits only, lower-cased: an outline title and its line match despite spacing or dots. */
function comparable(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Whether `line` starts a new paragraph after `previous`: a larger gap, or another type size. */
function newParagraph(previous: PdfTextLine, line: PdfTextLine): boolean {
  const gap = previous.y - line.y;
  const size = Math.max(previous.size, line.size);
  return gap < 0 || gap > size * PARAGRAPH_GAP || Math.abs(previous.size - line.size) > 0.1 * size;
}

/** `# not a heading` or a code fence in body text would be read as markdown structure. */
function escapeMarkdownStructure(text: string): string {
  return /^ {0,3}(?:#|```|~~~)/.test(text) ? `\\${text.trimStart()}` : text;
}

function pdfError(error: unknown): Error {
  if (error instanceof ParseError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') {
    return new ParseError(
      'encrypted',
      'This PDF is encrypted (password-protected). Remove the password and upload it again.',
    );
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException') {
    return new ParseError('corrupt', 'This PDF is corrupt or incomplete and cannot be read.');
  }
  return new ParseError('corrupt', 'This PDF could not be read: it may be damaged.');
}
