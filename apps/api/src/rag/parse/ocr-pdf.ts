import { createIsomorphicCanvasFactory, getDocumentProxy, renderPageAsImage } from 'unpdf';
import { normalizeText } from './decode-text.ts';
import { type OcrLimits, OcrReader } from './ocr.ts';
import { ParseError } from './parse-error.ts';

/** Pages are rendered for OCR at this resolution (the engine reads best at 200–300 dpi)… */
const OCR_DPI = 200;
/** …in PDF units (points) per inch. */
const POINTS_PER_INCH = 72;

const canvasModule = () => import('@napi-rs/canvas');

/**
 * Reads the given pages of a PDF (1-based; pages without a text layer) with OCR: each is rendered
 * with the PDF.js unpdf bundles onto an @napi-rs/canvas at OCR_DPI, scaled down when that would be
 * more than `maxImagePixels` (a page may declare any size), and read. More than `maxOcrPages`
 * pages are refused before any is read. `started` is called first (the worker's deadline grows to
 * the OCR one).
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
  started();
  const CanvasFactory = await createIsomorphicCanvasFactory(canvasModule);
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0, CanvasFactory });
  const reader = new OcrReader(limits);
  try {
    const sections: Array<{ text: string; page: number }> = [];
    for (const page of pages) {
      const { width, height } = (await pdf.getPage(page)).getViewport({ scale: 1 });
      const dpiScale = OCR_DPI / POINTS_PER_INCH;
      const scale = Math.min(dpiScale, Math.sqrt(limits.maxImagePixels / Math.max(1, width * height)));
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
