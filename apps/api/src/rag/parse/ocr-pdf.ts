import { createIsomorphicCanvasFactory, getDocumentProxy, renderPageAsImage } from 'unpdf';
import { normalizeText } from './decode-text.ts';
import { type OcrLimits, OcrReader, ocrScale } from './ocr.ts';
import { ParseError } from './parse-error.ts';
import { checkPixels } from './parse-image.ts';

/** Pages are rendered for OCR at this resolution (the engine reads best at 200–300 dpi)… */
const OCR_DPI = 200;
/** …in PDF units (points) per inch. */
const POINTS_PER_INCH = 72;

const canvasModule = () => import('@napi-rs/canvas');

/**
 * Reads the given pages of a PDF (1-based; pages without a text layer) with OCR: each is rendered
 * with the PDF.js unpdf bundles onto an @napi-rs/canvas at OCR_DPI, smaller when that would be
 * more than OCR_MAX_PIXELS (a page may declare any size), and read. More than `maxOcrPages`
 * pages, or an image of more than `maxImagePixels`, are refused before any page is read.
 * `started` is called first (the worker's deadline grows to the OCR one).
 */
export async function ocrPdfPages(
  data: Buffer,
  pages: number[],
  limits: OcrLimits,
  started: () => void,
): Promise<Array<{ text: string; page: number }>> {
  if (pages.length > limits.maxOcrPages) {
    throw new ParseError(
      'too_large',
      `This PDF has ${pages.length.toLocaleString('en')} scanned pages (pages without text); at most ${limits.maxOcrPages.toLocaleString('en')} pages of one file are read with OCR (text recognition). Split it into smaller documents.`,
    );
  }
  checkImageSizes(data, limits.maxImagePixels);
  started();
  const CanvasFactory = await createIsomorphicCanvasFactory(canvasModule);
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0, CanvasFactory });
  const reader = new OcrReader(limits);
  try {
    const sections: Array<{ text: string; page: number }> = [];
    for (const page of pages) {
      const { width, height } = (await pdf.getPage(page)).getViewport({ scale: 1 });
      const dpi = OCR_DPI / POINTS_PER_INCH;
      const scale = dpi * ocrScale(width * dpi, height * dpi);
      const png = await renderPageAsImage(pdf, page, { canvasImport: canvasModule, scale });
      const text = normalizeText(await reader.read(Buffer.from(png), `page ${page}`));
      if (text) sections.push({ text, page });
    }
    return sections;
  } finally {
    await reader.close();
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

const IMAGE_DICTIONARY = /\/Subtype\s*\/Image\b/g;

/**
 * Rendering a page decodes its images whole, at the size their dictionaries declare, whatever
 * the page's own size: a few bytes of zeros may declare 50,000 × 50,000 pixels. Image XObjects
 * are streams, never inside object streams, so their dictionaries are plain text before `stream`
 * (as check-pdf.ts reads them). A size given by reference is left to the worker's memory limit.
 */
function checkImageSizes(data: Buffer, maxPixels: number): void {
  const text = data.toString('latin1');
  for (const match of text.matchAll(IMAGE_DICTIONARY)) {
    const start = Math.max(0, text.lastIndexOf('obj', match.index));
    const end = text.indexOf('stream', match.index);
    const dictionary = text.slice(start, end < 0 ? match.index + 1000 : end);
    const width = Number(/\/Width\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary)?.[1] ?? 0);
    const height = Number(/\/Height\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary)?.[1] ?? 0);
    checkPixels(width, height, maxPixels, true);
  }
}
