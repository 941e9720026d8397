import { createCanvas } from '@napi-rs/canvas';

/**
 * Page images with text on them, as a scanner makes them: for OCR tests and bench/ocr. Each page
 * is US letter at `dpi`, black text set in a serif face at `pointSize`, wrapped to the margins;
 * paragraphs are separated by a blank line.
 */
export function renderPage(paragraphs: string[], options: { dpi?: number; pointSize?: number } = {}) {
  const dpi = options.dpi ?? 200;
  const px = (points: number) => Math.round((points * dpi) / 72);
  const width = px(612);
  const height = px(792);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, width, height);
  context.fillStyle = 'black';
  const fontSize = px(options.pointSize ?? 12);
  context.font = `${fontSize}px serif`;
  const margin = px(72);
  const lineHeight = Math.round(fontSize * 1.4);
  let y = margin + fontSize;
  for (const paragraph of paragraphs) {
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (context.measureText(next).width > width - 2 * margin && line) {
        context.fillText(line, margin, y);
        y += lineHeight;
        line = word;
      } else {
        line = next;
      }
    }
    context.fillText(line, margin, y);
    y += lineHeight * 2;
  }
  return { width, height, png: () => canvas.encode('png'), jpeg: () => canvas.encode('jpeg', 90) };
}

/**
 * A PDF of scanned pages: each page is one JPEG image (DCTDecode, as scanners write them) filling a
 * US-letter page, with no text layer at all.
 */
export async function makeScannedPdf(pages: string[][], dpi = 200): Promise<Buffer> {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string) =>
    objects.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'));
  add(''); // 1: catalog
  add(''); // 2: pages
  const pageIds: number[] = [];
  for (const paragraphs of pages) {
    const page = renderPage(paragraphs, { dpi });
    const jpeg = await page.jpeg();
    const image = add(
      Buffer.concat([
        Buffer.from(
          `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
          'latin1',
        ),
        jpeg,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
    const draw = 'q 612 0 0 792 0 0 cm /Im1 Do Q';
    const content = add(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 ${image} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[0] = Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1');
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
    'latin1',
  );
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  let trailer = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) trailer += `${String(offset).padStart(10, '0')} 00000 n \n`;
  trailer += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(trailer, 'latin1'));
  return Buffer.concat(parts);
}

/** A PNG whose header declares `width` × `height` pixels and whose data is a few bytes: an image bomb. */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.writeUInt8(8, 16); // bit depth
  ihdr.writeUInt8(2, 17); // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    ihdr,
    Buffer.alloc(64),
  ]);
}
