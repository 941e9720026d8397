import { createRequire } from 'node:module';
import path from 'node:path';
import type { Block, Line, Worker } from 'tesseract.js';
import { joinLines } from './decode-text.ts';
import { ParseError } from './parse-error.ts';

/** What reading one document with OCR may cost (parse-limits.ts holds the defaults). */
export interface OcrLimits {
  /** Pages of one PDF read with OCR; a scanned PDF with more is refused. */
  maxOcrPages: number;
  /** Wall-clock time for one page or image. */
  ocrPageMs: number;
  /** Wall-clock time for all the pages of one document. */
  ocrDocumentMs: number;
  /** Pixels of one image, or of one PDF page rendered for OCR (declared sizes are checked before decoding). */
  maxImagePixels: number;
  /** Bytes of one image file. */
  maxImageBytes: number;
}

/**
 * The most pixels the engine is given: a letter or A4 page at 250 dpi (at 200 dpi, 3.7 million).
 * Larger images are scaled down first: the engine reads 12 pt text at 150 dpi without a mistake
 * (bench/ocr), while a 25-million-pixel image given whole took more than the worker's 512 MB, and
 * at 10 million more than 30 s on the loaded development machine.
 */
export const OCR_MAX_PIXELS = 6_000_000;

/** The scale that brings `width` × `height` to at most OCR_MAX_PIXELS (1 when it is already). */
export function ocrScale(width: number, height: number): number {
  return Math.min(1, Math.sqrt(OCR_MAX_PIXELS / Math.max(1, width * height)));
}

/**
 * The English model that @tesseract.js-data/eng installs (LSTM, "best_int": the engine's default
 * mode, and a quarter of the size of the legacy data). Read from disk: nothing is downloaded.
 */
function englishDataPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/**
 * Reads text from page images with tesseract.js, offline (docs/decisions/072-ocr.md): its core and
 * wasm are local modules and the language data comes from @tesseract.js-data/eng, with the cache
 * off (it would write a copy of the data to the working directory). One engine per document,
 * started on the first page; every page has `ocrPageMs` and the whole document `ocrDocumentMs`,
 * after which the engine is stopped and the document refused.
 */
export class OcrReader {
  private engine: Promise<Worker> | undefined;
  private readonly deadline: number;

  constructor(private readonly limits: OcrLimits) {
    this.deadline = Date.now() + limits.ocrDocumentMs;
  }

  /** The text of one page image (PNG) as markdown paragraphs. */
  async read(png: Buffer, what: string): Promise<string> {
    const left = this.deadline - Date.now();
    const pageMs = Math.min(this.limits.ocrPageMs, left);
    if (pageMs <= 0) throw this.tooSlowForDocument();
    // tesseract.js loads with the first page, within OCR's deadline: on a busy machine loading it
    // alone can outlast a text file's deadline, which is all the worker has before OCR starts.
    this.engine ??= import('tesseract.js').then(({ createWorker, OEM }) =>
      createWorker('eng', OEM.LSTM_ONLY, {
        langPath: englishDataPath(),
        cacheMethod: 'none',
        gzip: true,
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          pageMs < this.limits.ocrPageMs
            ? this.tooSlowForDocument()
            : new ParseError(
                'too_slow',
                `Reading ${what} with OCR (text recognition) took longer than ${seconds(this.limits.ocrPageMs)}, the limit for one page, and was stopped.`,
              ),
        );
      }, pageMs);
    });
    try {
      const engine = await Promise.race([this.engine, stopped]);
      const { data } = await Promise.race([
        engine.recognize(png, {}, { text: false, blocks: true }),
        stopped,
      ]);
      return ocrParagraphs(data.blocks ?? []);
    } catch (error) {
      // A page that ran out of time leaves the engine busy with it: it is stopped, not reused.
      await this.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    await engine?.then((e) => e.terminate()).catch(() => {});
  }

  private tooSlowForDocument(): ParseError {
    return new ParseError(
      'too_slow',
      `Reading this document with OCR (text recognition) took longer than ${seconds(this.limits.ocrDocumentMs)}, the limit for one file, and was stopped. Split it into smaller documents.`,
    );
  }
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} seconds`;

/** A gap between lines larger than this many times the line's height separates paragraphs. */
const PARAGRAPH_GAP = 0.8;

/**
 * What the engine read as markdown paragraphs: the lines of a paragraph joined (a word broken at a
 * hyphen mended), paragraphs separated by a blank line, as the PDF text layer is read
 * (parse-pdf.ts). The engine's own paragraphs are split further where a gap between lines is
 * larger than a line: it takes a page of one-line paragraphs for one.
 */
function ocrParagraphs(blocks: Block[]): string {
  const paragraphs: string[] = [];
  for (const paragraph of blocks.flatMap((block) => block.paragraphs)) {
    let text = '';
    let previous: Line | undefined;
    for (const line of paragraph.lines) {
      const words = line.text.trim();
      if (!words) continue;
      const height = previous ? previous.bbox.y1 - previous.bbox.y0 : 0;
      if (previous && line.bbox.y0 - previous.bbox.y1 > height * PARAGRAPH_GAP) {
        paragraphs.push(text);
        text = '';
      }
      text = text ? joinLines(text, words) : words;
      previous = line;
    }
    if (text) paragraphs.push(text);
  }
  return paragraphs.join('\n\n');
}
