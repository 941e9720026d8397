/**
 * Writes a text PDF of N pages with no dependencies: one Helvetica text stream per page, each page
 * a different paragraph of plausible prose, so the parser and chunker see real work.
 */
const WORDS =
  'harbour lantern granite keeper tide orchard pruning winter moth ferry timetable slipway quay pilot boat chart buoy channel depth anchor mooring beacon signal weather forecast gale swell current north south east west survey record ledger maintenance inspection schedule wick glass lens brass copper salt rope net catch season market auction price'.split(
    ' ',
  );

function paragraph(seed: number, words: number): string {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

const escapePdf = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);

export function makePdf(pages: number, linesPerPage = 40): Buffer {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add(''); // filled below
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (let p = 0; p < pages; p++) {
    const lines = [`Section ${p + 1}: ${paragraph(p, 4)}`];
    for (let l = 1; l < linesPerPage; l++) lines.push(`${paragraph(p * 1000 + l, 12)}.`);
    const stream = [
      'BT /F1 10 Tf 12 TL 50 780 Td',
      ...lines.map((line) => `(${escapePdf(line)}) Tj T*`),
      'ET',
    ].join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
