import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import type { ParsedDocument } from '../types.ts';
import { normalizeText } from './decode-text.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { ParseError } from './parse-error.ts';

/** .docx → markdown through mammoth's HTML, so headings and lists survive for chunking. */
export async function parseDocx(data: Buffer): Promise<ParsedDocument> {
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: data })).value;
  } catch {
    throw new ParseError('corrupt', 'This Word document is corrupt or incomplete and cannot be read.');
  }
  const text = normalizeText(htmlToMarkdown(html));
  const heading = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? '';
  return { title: heading, sections: text ? [{ text }] : [] };
}

/** .doc (Word 97–2003) → its body text; the format keeps no reliable heading markup. */
export async function parseDoc(data: Buffer): Promise<ParsedDocument> {
  let body: string;
  try {
    const doc = await new WordExtractor().extract(data);
    body = doc.getBody();
  } catch (error) {
    const message = String((error as Error)?.message ?? '');
    if (/encrypt|password/i.test(message)) {
      throw new ParseError(
        'encrypted',
        'This Word document is encrypted (password-protected). Remove the password and upload it again.',
      );
    }
    throw new ParseError(
      'corrupt',
      'This .doc file is corrupt or is not a Word document and cannot be read.',
    );
  }
  const text = normalizeText(body);
  return { title: '', sections: text ? [{ text }] : [] };
}
