import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import type { ParsedDocument } from '../types.ts';
import { normalizeText } from './decode-text.ts';
import { ParseError } from './parse-error.ts';

/** PDF → one section per page (pages keep their number for citations). */
export async function parsePdf(data: Buffer): Promise<ParsedDocument> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the array it is given: pass a copy, never the caller's buffer.
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    throw pdfError(error);
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false }).catch((error: unknown) => {
      throw pdfError(error);
    });
    const sections = text
      .map((pageText, index) => ({ text: normalizeText(pageText), page: index + 1 }))
      .filter((section) => section.text.length > 0);
    if (sections.length === 0) {
      throw new ParseError(
        'no_text_layer',
        pdf.numPages > 0
          ? 'This PDF has no text layer: it looks like a scanned document. Run it through OCR (text recognition) and upload the result.'
          : 'This PDF has no pages.',
      );
    }
    const meta = await getMeta(pdf).catch(() => undefined);
    const info = meta?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' ? info.Title.trim() : '';
    return { title, sections };
  } finally {
    await pdf.destroy().catch(() => {});
  }
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
