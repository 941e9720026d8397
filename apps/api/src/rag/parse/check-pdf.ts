import zlib from 'node:zlib';
import { getDocumentProxy } from 'unpdf';
import { ParseError } from './parse-error.ts';
import { MAX_COMPRESSION_RATIO, megabytes, RATIO_CHECKED_ABOVE_BYTES } from './parse-limits.ts';

/**
 * Refuses a PDF that would cost more to read than one file may, before pdf.js reads its text:
 * more than `maxPages` pages, or compressed (Flate) streams that expand to more than
 * `maxExpandedBytes` in all or more than MAX_COMPRESSION_RATIO times the file. pdf.js inflates a
 * stream whole into memory outside the worker's heap limit, so a 1 MB stream of zeros that
 * inflates to gigabytes must be caught here, where each stream is inflated with a cap on its output
 * and dropped. Images are skipped: their pixels are never decoded to read text, and a scan's
 * pixels are legitimately large. Streams that do not inflate are left to pdf.js.
 */
export async function checkPdf(
  data: Buffer,
  limits: { maxExpandedBytes: number; maxPdfPages: number },
): Promise<void> {
  await checkStreams(data, limits.maxExpandedBytes);
  await checkPages(data, limits.maxPdfPages);
}

const STREAM_KEYWORD = /\bstream(?:\r\n|\n|\r)/g;

async function checkStreams(data: Buffer, maxExpandedBytes: number): Promise<void> {
  // latin1 keeps one character per byte, so string offsets are buffer offsets.
  const text = data.toString('latin1');
  let expanded = 0;
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    const start = match.index + match[0].length;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf('obj', match.index)), match.index);
    if (!/\/FlateDecode\b|\/Fl\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const end = text.indexOf('endstream', start);
    expanded += await inflatedSize(
      data.subarray(start, end < 0 ? data.length : end),
      maxExpandedBytes - expanded,
    );
    if (expanded > maxExpandedBytes) {
      throw new ParseError(
        'too_large',
        `This PDF expands to more than ${megabytes(maxExpandedBytes)} when its contents are unpacked, the limit for one file. Split it into smaller documents.`,
      );
    }
  }
  if (expanded > RATIO_CHECKED_ABOVE_BYTES && expanded > data.length * MAX_COMPRESSION_RATIO) {
    throw new ParseError(
      'too_large',
      `This PDF expands to more than ${MAX_COMPRESSION_RATIO} times its size (${megabytes(data.length)} to over ${megabytes(expanded)}): it looks like a decompression bomb and was not opened.`,
    );
  }
}

/**
 * What a deflated stream inflates to, counted chunk by chunk and never held whole; stops once it
 * passes `budget`. A stream cut short counts for what it inflates to, as pdf.js reads it; one that
 * does not inflate at all counts for nothing (pdf.js decides what it is).
 */
async function inflatedSize(compressed: Buffer, budget: number): Promise<number> {
  const inflate = zlib.createInflate({ chunkSize: 1024 * 1024, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  inflate.end(compressed);
  let size = 0;
  try {
    for await (const chunk of inflate) {
      size += (chunk as Buffer).length;
      if (size > budget) break;
    }
  } catch {
    // Not zlib data, or damaged after some point: what came out so far is what counts.
  } finally {
    inflate.destroy();
  }
  return size;
}

async function checkPages(data: Buffer, maxPages: number): Promise<void> {
  let pages: number;
  try {
    const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
    pages = pdf.numPages;
    await pdf.loadingTask.destroy().catch(() => {});
  } catch {
    // Encrypted, corrupt …: the PDF parser says which.
    return;
  }
  if (pages > maxPages) {
    throw new ParseError(
      'too_large',
      `This PDF has ${pages.toLocaleString('en')} pages; one file may have at most ${maxPages.toLocaleString('en')}. Split it into smaller documents.`,
    );
  }
}
