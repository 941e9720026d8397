import { checkArchive } from './check-archive.ts';
import { checkPdf } from './check-pdf.ts';
import { type ParseInput, type ParseResult, parseDocument } from './parse-document.ts';
import { ParseError } from './parse-error.ts';
import { megabytes, type ParseLimits } from './parse-limits.ts';
import { sniffKind } from './sniff.ts';

/**
 * `parseDocument` with the limits that do not need a worker to enforce: archives and PDFs are
 * measured before they are opened, and the text is measured before it leaves. Runs inside the
 * parse worker (parse-workers.ts), whose memory and time limits catch whatever these miss.
 */
export async function parseWithinLimits(
  input: ParseInput,
  limits: ParseLimits,
  ocrStarted: () => void = () => {},
): Promise<ParseResult> {
  const kind = await sniffKind(input.data, { filename: input.filename, mimeType: input.mimeType });
  if (kind === 'docx') await checkArchive(input.data, limits.maxExpandedBytes);
  if (kind === 'pdf') await checkPdf(input.data, limits);
  const result = await parseDocument(input, limits, ocrStarted);
  let textBytes = 0;
  for (const section of result.document.sections) textBytes += Buffer.byteLength(section.text);
  if (textBytes > limits.maxTextBytes) {
    throw new ParseError(
      'too_large',
      `This file holds more than ${megabytes(limits.maxTextBytes)} of text, the limit for one item. Split it into smaller documents.`,
    );
  }
  return result;
}
