/**
 * Builds small text PDFs for parser tests, with no dependencies: each line is drawn in Helvetica
 * at its own size and position, and the document may have an outline (bookmarks) and an Info
 * title.
 */
export interface PdfLine {
  text: string;
  size?: number;
  /** Extra space above the line, in points (a paragraph gap). */
  gapBefore?: number;
}

export function makePdf(options: {
  pages: PdfLine[][];
  outline?: Array<{ title: string; page: number }>;
  title?: string;
}): Buffer {
  const escapePdf = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  add(''); // 1: catalog, filled below
  add(''); // 2: pages
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'); // 3
  const pageIds: number[] = [];
  for (const lines of options.pages) {
    let y = 760;
    const ops = ['BT'];
    for (const line of lines) {
      const size = line.size ?? 11;
      y -= (line.gapBefore ?? 0) + size * 1.3;
      ops.push(`/F1 ${size} Tf 1 0 0 1 50 ${y.toFixed(1)} Tm (${escapePdf(line.text)}) Tj`);
    }
    ops.push('ET');
    const stream = ops.join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  let outlineRef = '';
  if (options.outline?.length) {
    const root = add('');
    const first = objects.length + 1;
    const entries = options.outline;
    entries.forEach((entry, i) => {
      const links = [
        i > 0 ? `/Prev ${first + i - 1} 0 R` : '',
        i < entries.length - 1 ? `/Next ${first + i + 1} 0 R` : '',
      ].join(' ');
      add(
        `<< /Title (${escapePdf(entry.title)}) /Parent ${root} 0 R ${links} /Dest [${pageIds[entry.page - 1]} 0 R /XYZ 0 792 0] >>`,
      );
    });
    objects[root - 1] =
      `<< /Type /Outlines /First ${first} 0 R /Last ${first + entries.length - 1} 0 R /Count ${entries.length} >>`;
    outlineRef = ` /Outlines ${root} 0 R`;
  }
  objects[0] = `<< /Type /Catalog /Pages 2 0 R${outlineRef} >>`;
  objects[1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  const info = options.title ? add(`<< /Title (${escapePdf(options.title)}) >>`) : undefined;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info ? ` /Info ${info} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
