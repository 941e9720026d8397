import JSZip from 'jszip';
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import type { ParsedDocument } from '../types.ts';
import { normalizeText } from './decode-text.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { ParseError } from './parse-error.ts';

/**
 * .docx → markdown through mammoth's HTML, so headings and lists survive for chunking. The title
 * is the document's title property; without one it is left empty, so the item is named after its
 * file: a first Heading 1 is a section's name ("Opening hours"), and two documents would cite
 * alike.
 */
export async function parseDocx(data: Buffer): Promise<ParsedDocument> {
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: data })).value;
  } catch {
    throw new ParseError('corrupt', 'This Word document is corrupt or incomplete and cannot be read.');
  }
  const text = normalizeText(htmlToMarkdown(html));
  return { title: await docxTitle(data), sections: text ? [{ text }] : [] };
}

/** `dc:title` of the package's core properties (docProps/core.xml), '' when absent or unreadable. */
async function docxTitle(data: Buffer): Promise<string> {
  try {
    const zip = await JSZip.loadAsync(data);
    const core = await zip.file('docProps/core.xml')?.async('string');
    const title = core && /<dc:title(?:\s[^>]*)?>([^<]*)<\/dc:title>/.exec(core)?.[1];
    return title ? decodeXmlEntities(title).replace(/\s+/g, ' ').trim() : '';
  } catch {
    // mammoth read the body already: a damaged properties part only costs the title.
    return '';
  }
}

function decodeXmlEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return named[name] ?? entity;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
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
