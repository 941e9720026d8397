/**
 * Files made to hurt a parser, for the bounded-parsing tests and bench/parsing: a .docx
 * decompression bomb (with honest or lying sizes) and PDFs with a huge compressed stream or far
 * too many pages. Written by hand because no library writes a lying ZIP.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(chunks: Iterable<Buffer>): number {
  let crc = 0xffffffff;
  for (const chunk of chunks) for (const byte of chunk) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

interface ZipEntry {
  name: string;
  /** Raw-deflated bytes. */
  compressed: Buffer;
  crc: number;
  size: number;
  /** What the headers claim the entry inflates to (a lie when not `size`). */
  declaredSize?: number;
}

const deflated = (name: string, text: string): ZipEntry => {
  const data = Buffer.from(text);
  return { name, compressed: zlib.deflateRawSync(data), crc: crc32([data]), size: data.length };
};

function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? entry.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.compressed);
    centrals.push(central, name);
    offset += local.length + name.length + entry.compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const PARAGRAPH = Buffer.from('<w:p><w:r><w:t>All work and no play makes Jack a dull boy.</w:t></w:r></w:p>');

/** A `document.xml` of identical paragraphs, about `expandedBytes` long, deflated as a stream. */
async function bombDocument(expandedBytes: number): Promise<ZipEntry> {
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>',
  );
  const tail = Buffer.from('</w:body></w:document>');
  const block = Buffer.concat(
    Array.from({ length: Math.ceil((1024 * 1024) / PARAGRAPH.length) }, () => PARAGRAPH),
  );
  const blocks = Math.max(1, Math.round(expandedBytes / block.length));
  const parts = function* () {
    yield head;
    for (let i = 0; i < blocks; i++) yield block;
    yield tail;
  };
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(parts()).pipe(zlib.createDeflateRaw({ level: 9 })))
    out.push(chunk as Buffer);
  return {
    name: 'word/document.xml',
    compressed: Buffer.concat(out),
    crc: crc32(parts()),
    size: head.length + blocks * block.length + tail.length,
  };
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/**
 * A .docx whose `word/document.xml` inflates to about `expandedBytes` (400 MB from about 1 MB).
 * With `declaredBytes`, its headers claim that size instead (a bomb that lies).
 */
export async function docxBomb(
  expandedBytes: number,
  options: { declaredBytes?: number } = {},
): Promise<Buffer> {
  const document = await bombDocument(expandedBytes);
  if (options.declaredBytes !== undefined) document.declaredSize = options.declaredBytes;
  return writeZip([
    deflated('[Content_Types].xml', CONTENT_TYPES),
    deflated('_rels/.rels', ROOT_RELS),
    document,
  ]);
}

/** A PDF of the given page bodies (content streams), with `/Count` as given (a lie when it differs). */
function writePdf(contents: Array<{ dictionary: string; data: Buffer }>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const add = (body: Buffer | string) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${offsets.length} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    length += chunk.length;
    return offsets.length;
  };
  const pageIds = contents.map((_, i) => 4 + i * 2);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${contents.length} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (const content of contents) {
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${offsets.length + 2} 0 R >>`,
    );
    add(
      Buffer.concat([
        Buffer.from(`<< /Length ${content.data.length}${content.dictionary} >>\nstream\n`),
        content.data,
        Buffer.from('\nendstream'),
      ]),
    );
  }
  let xref = `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) xref += `${String(offset).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(xref)]);
}

const textPage = (text: string) => ({
  dictionary: '',
  data: Buffer.from(`BT /F1 12 Tf 72 720 Td (${text.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj ET`),
});

/** A PDF of `pages` short pages of text. */
export function pdfWithPages(pages: number): Buffer {
  return writePdf(Array.from({ length: pages }, (_, i) => textPage(`Page ${i + 1} of the almanac.`)));
}

/** A one-page PDF whose content stream is about `expandedBytes` of spaces deflated (400 MB from about 400 KB). */
export async function pdfFlateBomb(expandedBytes: number): Promise<Buffer> {
  const block = Buffer.alloc(1024 * 1024, 0x20);
  const parts = function* () {
    yield Buffer.from('BT /F1 12 Tf 72 720 Td (A page with a great deal of nothing.) Tj ET\n');
    for (let i = 0; i < Math.round(expandedBytes / block.length); i++) yield block;
  };
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(parts()).pipe(zlib.createDeflate({ level: 9 })))
    out.push(chunk as Buffer);
  return writePdf([{ dictionary: ' /Filter /FlateDecode', data: Buffer.concat(out) }]);
}
