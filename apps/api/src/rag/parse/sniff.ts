import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { ParseError } from './parse-error.ts';

/** The document kinds Cairn parses. */
/** `image`: PNG, JPEG or WebP, read with OCR. */
export type DocumentKind = 'pdf' | 'doc' | 'docx' | 'text' | 'markdown' | 'html' | 'image';

const BINARY_KINDS: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  // Word 97–2003 files are OLE compound files; word-extractor tells a Word one from the rest.
  'application/x-cfb': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
};

const EXTENSION_KINDS: Record<string, DocumentKind> = {
  '.pdf': 'pdf',
  '.doc': 'doc',
  '.docx': 'docx',
  '.txt': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.webp': 'image',
};

const KIND_NAMES: Record<DocumentKind, string> = {
  pdf: 'a PDF',
  doc: 'a Word 97–2003 document',
  docx: 'a Word document',
  text: 'plain text',
  markdown: 'Markdown',
  html: 'an HTML page',
  image: 'an image',
};

const TEXT_KINDS = new Set<DocumentKind>(['text', 'markdown', 'html']);

/** The kind a file name claims, or undefined for an unknown or missing extension. */
export function kindFromFilename(filename: string | undefined): DocumentKind | undefined {
  if (!filename) return undefined;
  return EXTENSION_KINDS[path.extname(filename).toLowerCase()];
}

/** Tab, line feed, vertical tab, form feed, carriage return, escape. */
const TEXT_CONTROL_BYTES = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

/**
 * True when the first 8 KB look like text: at most 1 in 100 of the bytes that are not NUL is a
 * control byte other than tab, line ends, form feed and escape. Text never has those, while random
 * or compressed data has about 1 in 10. NUL bytes alone do not make binary data: a text file or
 * web page with stray NULs (a log cut short by a crash, a bad export) is still text, and the parse
 * step removes them.
 */
export function looksLikeText(data: Buffer): boolean {
  const head = data.subarray(0, 8192);
  // UTF-16 text is half NULs but starts with a byte-order mark.
  if (head[0] === 0xff && head[1] === 0xfe) return true;
  if (head[0] === 0xfe && head[1] === 0xff) return true;
  let nonNul = 0;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) continue;
    nonNul++;
    if (byte < 0x20 && !TEXT_CONTROL_BYTES.has(byte)) control++;
  }
  return nonNul > 0 && control * 100 <= nonNul;
}

/**
 * Decides how to parse bytes by their content, not by what the name or the server claims.
 * A name's extension must agree with the content (a `.pdf` that is a PNG is refused); the text
 * family (.txt, .md, .html) only needs text content and is parsed as its extension says.
 */
export async function sniffKind(
  data: Buffer,
  hints: { filename?: string | undefined; mimeType?: string | undefined } = {},
): Promise<DocumentKind> {
  const claimed = kindFromFilename(hints.filename);
  const detected = await fileTypeFromBuffer(data);
  // Some signatures are two letters ("BM" is a bitmap): text that merely starts with them is text.
  const textLookalike =
    detected && !BINARY_KINDS[detected.mime] && looksLikeText(data) && (!claimed || TEXT_KINDS.has(claimed));
  if (detected && !textLookalike) {
    // A damaged .docx is often still recognisable as a ZIP: let the Word parser say it is corrupt.
    const kind =
      BINARY_KINDS[detected.mime] ?? (detected.ext === 'zip' && claimed === 'docx' ? 'docx' : undefined);
    if (!kind) {
      throw new ParseError(
        'unsupported_type',
        `Unsupported file type: the content is ${describeFileType(detected.ext)}, not a PDF, Word, text, Markdown, HTML or image (PNG, JPEG, WebP) file.`,
      );
    }
    if (claimed && claimed !== kind) {
      throw new ParseError(
        'type_mismatch',
        `The file is named ${path.extname(hints.filename!)} but its content is ${KIND_NAMES[kind]}.`,
      );
    }
    return kind;
  }
  if (data.length > 0 && !looksLikeText(data)) {
    throw new ParseError(
      'unsupported_type',
      'Unsupported file type: the content is binary data, not a PDF, Word, text, Markdown, HTML or image (PNG, JPEG, WebP) file.',
    );
  }
  if (claimed && !TEXT_KINDS.has(claimed)) {
    throw new ParseError(
      claimed === 'pdf' || claimed === 'docx' || claimed === 'image' ? 'corrupt' : 'type_mismatch',
      `The file is named ${path.extname(hints.filename!)} but its content is plain text, not ${KIND_NAMES[claimed]}.`,
    );
  }
  if (claimed) return claimed;
  const mime = hints.mimeType?.split(';')[0]?.trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'text/markdown') return 'markdown';
  if (/^\s*(<!doctype html|<html[\s>])/i.test(data.subarray(0, 1024).toString('latin1'))) return 'html';
  return 'text';
}

function describeFileType(ext: string): string {
  const names: Record<string, string> = {
    png: 'a PNG image',
    jpg: 'a JPEG image',
    gif: 'a GIF image',
    webp: 'a WebP image',
    zip: 'a ZIP archive',
    xlsx: 'an Excel workbook',
    pptx: 'a PowerPoint presentation',
    exe: 'a program',
    elf: 'a program',
    mp3: 'an MP3 audio file',
    mp4: 'an MP4 video',
  };
  return names[ext] ?? `a .${ext} file`;
}
