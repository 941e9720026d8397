import type { OcrLimits } from './ocr.ts';

/**
 * What parsing one file may cost (docs/decisions/055-bounded-parsing.md). Every file is parsed in a
 * worker thread that is stopped when it takes longer than `timeoutMs` or needs more heap than
 * `memoryMb`; archives and PDFs are measured before they are opened. Reading scans with OCR has
 * limits of its own (OcrLimits, docs/decisions/072-ocr.md).
 */
export interface ParseLimits extends OcrLimits {
  /** Wall-clock time for one file, from the worker's start to its answer. */
  timeoutMs: number;
  /** The worker's V8 heap (old generation), in MB. */
  memoryMb: number;
  /** What an archive (.docx) or a PDF's compressed streams may expand to, in bytes. */
  maxExpandedBytes: number;
  /** Text extracted from one item, in bytes of UTF-8. */
  maxTextBytes: number;
  /** Pages of one PDF. */
  maxPdfPages: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  timeoutMs: 60_000,
  memoryMb: 512,
  maxExpandedBytes: 200 * 1024 * 1024,
  maxTextBytes: 20 * 1024 * 1024,
  maxPdfPages: 2_000,
  // A scanned page takes about 2.5 s of CPU to read (bench/ocr): 50 pages fit in 5 minutes on a
  // core of their own.
  maxOcrPages: 50,
  ocrPageMs: 30_000,
  ocrDocumentMs: 300_000,
  // A letter or A4 page at 300 dpi is 8.4–8.7 million pixels, A3 17.4; decoded, 4 bytes each.
  maxImagePixels: 25_000_000,
  maxImageBytes: 20 * 1024 * 1024,
};

/**
 * Compressed data that expands more than this many times is a bomb, not a document (Office XML
 * compresses 5–20 times, repeated table rows up to ~60)…
 */
export const MAX_COMPRESSION_RATIO = 100;
/** …once it expands to more than this: small files cannot hurt whatever their ratio. */
export const RATIO_CHECKED_ABOVE_BYTES = 10 * 1024 * 1024;

export const megabytes = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.round(bytes / 1024)} KB`
    : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
