import path from 'node:path';
import { stripControlCharacters } from '@cairn/contracts/text';
import type { ParsedDocument } from '../types.ts';
import { decodeText, firstLineTitle, normalizeText } from './decode-text.ts';
import { IMAGE_MIME_TYPES, readImageHeader } from './image-header.ts';
import type { OcrLimits } from './ocr.ts';
import { ParseError } from './parse-error.ts';
import { DEFAULT_PARSE_LIMITS } from './parse-limits.ts';
import { type DocumentKind, sniffKind } from './sniff.ts';

export interface ParseInput {
  data: Buffer;
  /** The original file name: its extension must agree with the content. */
  filename?: string | undefined;
  /** What the sender declared (a web server's Content-Type); a hint only. */
  mimeType?: string | undefined;
  /** The page's address, for web pages (resolves links). */
  baseUrl?: string | undefined;
  /** A title the user gave; wins over anything found in the document. */
  title?: string | undefined;
}

export interface ParseResult {
  document: ParsedDocument;
  kind: DocumentKind;
  mimeType: string;
  /** Same-site crawl candidates (web pages only). */
  links: string[];
}

const MIME_TYPES: Record<Exclude<DocumentKind, 'image'>, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
};

/**
 * Any supported document → markdown sections. The kind is decided by the content (sniffed), the
 * title by the user, then the document, then its first line or file name. Images and PDF pages
 * without a text layer are read with OCR within `ocr`; `ocrStarted` is called before. Fails with a
 * ParseError whose message tells the person what is wrong with the file.
 */
export async function parseDocument(
  input: ParseInput,
  ocr: OcrLimits = DEFAULT_PARSE_LIMITS,
  ocrStarted: () => void = () => {},
): Promise<ParseResult> {
  const kind = await sniffKind(input.data, { filename: input.filename, mimeType: input.mimeType });
  let document: ParsedDocument;
  let links: string[] = [];
  // Each format's parser (unpdf, mammoth, word-extractor, linkedom + readability + turndown: tens
  // of MB resident together) is loaded the first time a document of its kind arrives, so a server
  // that only ever indexes text pays for none of them.
  switch (kind) {
    case 'pdf':
      document = await (await import('./parse-pdf.ts')).parsePdf(input.data, {
        limits: ocr,
        started: ocrStarted,
      });
      break;
    case 'image':
      ocrStarted();
      document = await (await import('./parse-image.ts')).parseImage(input.data, ocr);
      break;
    case 'docx':
      document = await (await import('./parse-word.ts')).parseDocx(input.data);
      break;
    case 'doc':
      document = await (await import('./parse-word.ts')).parseDoc(input.data);
      break;
    case 'html': {
      const { parseHtml } = await import('./parse-html.ts');
      const parsed = parseHtml(decodeText(input.data), input.baseUrl);
      links = parsed.links;
      document = { title: parsed.title, language: parsed.language, sections: parsed.sections };
      break;
    }
    default: {
      const text = normalizeText(decodeText(input.data));
      document = { title: '', sections: text ? [{ text }] : [] };
    }
  }
  if (document.sections.every((s) => s.text.trim().length === 0)) {
    throw new ParseError('empty', 'The document contains no text to index.');
  }
  const fromName = input.filename ? path.basename(input.filename, path.extname(input.filename)) : undefined;
  const title =
    input.title?.trim() ||
    document.title.trim() ||
    (kind === 'text' || kind === 'markdown' ? undefined : fromName) ||
    firstLineTitle(document.sections[0]!.text) ||
    fromName ||
    'Untitled';
  // A title is one line: a <title> or file name may hold line breaks or NULs, which go.
  const oneLineTitle = stripControlCharacters(title).replace(/\s+/g, ' ').trim().slice(0, 255) || 'Untitled';
  const mimeType =
    kind === 'image' ? IMAGE_MIME_TYPES[readImageHeader(input.data)!.format] : MIME_TYPES[kind];
  return { document: { ...document, title: oneLineTitle }, kind, mimeType, links };
}
