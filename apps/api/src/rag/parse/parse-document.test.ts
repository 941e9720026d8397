import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../../testing/make-pdf.ts';
import { parseRefusal } from '../../testing/parse-refusal.ts';
import { chunkDocument } from '../chunk.ts';
import { parseDocument } from './parse-document.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => fs.readFileSync(path.join(here, 'fixtures', name));
const parse = (name: string, filename = name) => parseDocument({ data: fixture(name), filename });

describe('parsers on real files', () => {
  it('reads a PDF page by page, keeping page numbers', async () => {
    const { document, kind, mimeType } = await parse('sample.pdf');
    expect(kind).toBe('pdf');
    expect(mimeType).toBe('application/pdf');
    expect(document.sections.map((s) => s.page)).toEqual([1, 2]);
    expect(document.sections[0]!.text).toContain('Apple trees in the north orchard');
    expect(document.sections[1]!.text).toContain('Codling moth larvae');
    expect(document.title).toBeTruthy();
  });

  it('reads a .docx into markdown with its headings and list', async () => {
    const { document, kind } = await parse('sample.docx');
    expect(kind).toBe('docx');
    const text = document.sections.map((s) => s.text).join('\n');
    expect(text).toMatch(/^#+ Maintenance$/m);
    expect(text).toMatch(/^- Clean the glass weekly\.$/m);
    expect(text).toContain('carved in 1887');
    expect(document.title).toBe('Granite Lantern Handbook');
  });

  it('reads a Word 97 .doc', async () => {
    const { document, kind, mimeType } = await parse('sample.doc');
    expect(kind).toBe('doc');
    expect(mimeType).toBe('application/msword');
    const text = document.sections[0]!.text;
    expect(text).toContain('The granite lantern is lit every evening');
    expect(text).toContain('Replace the wick every ninety days.');
  });

  it('reads .txt and .md, titling them by their first line', async () => {
    const txt = await parse('sample.txt');
    expect(txt.kind).toBe('text');
    expect(txt.document.title).toBe('Tide table for Mousehole harbour');
    expect(txt.document.sections[0]!.text).toContain('High water on Saturday is at 06:42');
    const md = await parse('sample.md');
    expect(md.kind).toBe('markdown');
    expect(md.document.title).toBe('Beekeeping notes');
    expect(md.document.sections[0]!.text).toContain('## Swarming');
  });

  it('reads HTML to markdown keeping headings and lists, and takes the page title', async () => {
    const { document, kind } = await parse('sample.html');
    expect(kind).toBe('html');
    expect(document.title).toBe('Granite Lantern Handbook');
    const text = document.sections[0]!.text;
    expect(text).toMatch(/^## Maintenance$/m);
    expect(text).toMatch(/^- Clean the glass weekly\.$/m);
    expect(text).not.toContain('<');
  });

  it('prefers the title the user gave', async () => {
    const { document } = await parseDocument({
      data: fixture('sample.pdf'),
      filename: 'x.pdf',
      title: 'Mine',
    });
    expect(document.title).toBe('Mine');
  });

  it('decodes legacy Windows-1252 text', async () => {
    const { document } = await parseDocument({
      data: Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x6d, 0x65, 0x6e, 0x75]),
      filename: 'menu.txt',
    });
    expect(document.sections[0]!.text).toBe('Café menu');
  });
  it('titles text by its first line without the markdown markers around words, keeping those inside names', async () => {
    const named = await parseDocument({
      data: Buffer.from(
        'Gateway_certificate_chain_errors and `snake_case` flags\n\nWhen the chain is incomplete…',
      ),
      filename: 'text.md',
    });
    expect(named.document.title).toBe('Gateway_certificate_chain_errors and snake_case flags');
    const marked = await parseDocument({
      data: Buffer.from('# **Bold** title with _emphasis_, ***both*** and 2 * 3 * 4\n\nBody.'),
      filename: 'text.md',
    });
    expect(marked.document.title).toBe('Bold title with emphasis, both and 2 * 3 * 4');
  });
  it('reads text that happens to start like a binary signature ("BM" of a bitmap) as text', async () => {
    const text = 'BMI above 30 is associated with a higher risk of heart disease.';
    const result = await parseDocument({ data: Buffer.from(text), filename: 'text.md' });
    expect(result.kind).toBe('markdown');
    expect(result.document.sections[0]!.text).toBe(text);
  });
});

/** sample.docx (Heading 1 "Granite Lantern Handbook") with its dc:title replaced, or removed (null). */
async function docxWithTitle(title: string | null): Promise<Buffer> {
  const zip = await JSZip.loadAsync(fixture('sample.docx'));
  const core = await zip.file('docProps/core.xml')!.async('string');
  const element = title === null ? '' : `<dc:title>${title}</dc:title>`;
  zip.file('docProps/core.xml', core.replace(/<dc:title>[^<]*<\/dc:title>/, element));
  return zip.generateAsync({ type: 'nodebuffer' });
}

describe('labels that are true', () => {
  const BODY = [
    { text: 'The shop opens at nine on weekdays', gapBefore: 4 },
    { text: 'and at ten on Sundays; it closes at six.' },
    // A line of body text that looks like a markdown heading (a config file quoted in a manual).
    { text: '# update-mime-database command. DO NOT EDIT!', gapBefore: 8 },
    { text: 'Deliveries come to the well-' },
    { text: 'known back door.' },
  ];

  it('a PDF passage is labelled with the real headings above it: larger type, the outline', async () => {
    const data = makePdf({
      pages: [
        [
          { text: 'Opening hours', size: 20 },
          ...BODY.slice(0, 2),
          { text: 'Parking', size: 15, gapBefore: 8 },
        ],
        [
          { text: 'Spaces are behind the bakery.' },
          // Body-sized, but an entry of the outline: a heading too.
          { text: 'Deliveries', gapBefore: 8 },
          ...BODY.slice(2),
        ],
      ],
      outline: [
        { title: 'Opening hours', page: 1 },
        { title: 'Deliveries', page: 2 },
      ],
    });
    const { document } = await parseDocument({ data, filename: 'shop.pdf' });
    const labels = chunkDocument(document).map((c) => [c.page, c.heading, c.content.split('\n').at(-1)]);
    expect(labels).toEqual([
      [1, 'Opening hours', 'The shop opens at nine on weekdays and at ten on Sundays; it closes at six.'],
      [1, 'Opening hours › Parking', '## Parking'],
      [2, 'Opening hours › Parking', 'Spaces are behind the bakery.'],
      [
        2,
        'Deliveries',
        '\\# update-mime-database command. DO NOT EDIT! Deliveries come to the well-known back door.',
      ],
    ]);
  });

  it('a PDF heading set over two lines is one heading; a drop cap is not a heading', async () => {
    const data = makePdf({
      pages: [
        [
          { text: 'Opening hours on public', size: 20 },
          { text: 'holidays and in winter', size: 20 },
          { text: 'W', size: 30, gapBefore: 8 },
          { text: 'e open at ten on holidays, and close at four in the afternoon' },
          { text: 'from November to February, when the days are short.' },
        ],
      ],
    });
    const { document } = await parseDocument({ data, filename: 'hours.pdf' });
    expect(chunkDocument(document).map((c) => c.heading)).toEqual([
      'Opening hours on public holidays and in winter',
    ]);
  });

  it('a PDF without headings gives passages without a section, never a line of body text', async () => {
    const data = makePdf({ pages: [[{ text: 'Shop notes' }, ...BODY]] });
    const { document } = await parseDocument({ data, filename: 'notes.pdf' });
    const chunks = chunkDocument(document);
    expect(chunks.map((c) => c.heading)).toEqual([null]);
    // Lines of a paragraph are joined; paragraphs stay apart.
    expect(document.sections[0]!.text).toBe(
      [
        'Shop notes',
        'The shop opens at nine on weekdays and at ten on Sundays; it closes at six.',
        '\\# update-mime-database command. DO NOT EDIT! Deliveries come to the well-known back door.',
      ].join('\n\n'),
    );
    expect(document.title).toBe('notes');
  });

  it('a .docx is titled by its title property, else by its file name, never by its first heading', async () => {
    const titled = await parseDocument({
      data: await docxWithTitle('Harbour &amp; lantern guide'),
      filename: 'lantern.docx',
    });
    expect(titled.document.title).toBe('Harbour & lantern guide');
    const untitled = await parseDocument({ data: await docxWithTitle(null), filename: 'lantern-care.docx' });
    expect(untitled.document.title).toBe('lantern-care');
    const blank = await parseDocument({ data: await docxWithTitle('  '), filename: 'lantern-care.docx' });
    expect(blank.document.title).toBe('lantern-care');
    // The heading is still the first section's label.
    expect(chunkDocument(untitled.document)[0]!.heading).toBe('Granite Lantern Handbook');
  });
});

describe('failure reasons', () => {
  it('an encrypted PDF', async () => {
    const error = await parseRefusal(parse('encrypted.pdf'));
    expect(error.reason).toBe('encrypted');
    expect(error.message).toMatch(/encrypted \(password-protected\)/);
  });

  it('a scanned PDF in which OCR finds no text either is reported, not indexed as empty', async () => {
    const error = await parseRefusal(parse('scanned.pdf'));
    expect(error.reason).toBe('no_text_layer');
    expect(error.message).toBe(
      'This PDF has no text layer, and reading its pages with OCR (text recognition) found no text either.',
    );
  });

  it('a corrupt PDF and a corrupt .docx', async () => {
    expect((await parseRefusal(parse('corrupt.pdf'))).reason).toBe('corrupt');
    const docx = await parseRefusal(parse('corrupt.docx'));
    expect(docx.reason).toBe('corrupt');
    expect(docx.message).toMatch(/corrupt/);
  });

  it('checks the type by content: an image named .pdf, an image named .txt, a PDF named .docx', async () => {
    const png = await parseRefusal(parse('image.png', 'report.pdf'));
    expect(png.reason).toBe('type_mismatch');
    expect(png.message).toBe('The file is named .pdf but its content is an image.');
    expect((await parseRefusal(parse('image.png', 'notes.txt'))).reason).toBe('type_mismatch');
    const mismatch = await parseRefusal(parse('sample.pdf', 'letter.docx'));
    expect(mismatch.reason).toBe('type_mismatch');
    expect(mismatch.message).toBe('The file is named .docx but its content is a PDF.');
    const textAsPdf = await parseRefusal(parse('sample.txt', 'paper.pdf'));
    expect(textAsPdf.message).toMatch(/named \.pdf but its content is plain text/);
  });

  it('removes NUL and other control characters from text, Markdown and HTML', async () => {
    const text = await parseDocument({
      data: Buffer.from(`${'Opening\u0000 hours: nine\fto five.\n'.repeat(5)}Closed\u0007 on Sundays.\u0000`),
      filename: 'a.txt',
    });
    expect(text.document.sections[0]!.text).toBe(
      `${'Opening hours: nine\nto five.\n'.repeat(5)}Closed on Sundays.`,
    );
    const markdown = await parseDocument({
      data: Buffer.from('# Ti\u0000tle\n\nBo\u0000dy'),
      filename: 'a.md',
    });
    expect(markdown.kind).toBe('markdown');
    expect(markdown.document.sections[0]!.text).toBe('# Title\n\nBody');
    const html = await parseDocument({
      data: Buffer.from(
        '<html><head><title>Pa\u0000ge\none</title></head><body><p>Hel\u0000lo there</p></body></html>',
      ),
      filename: 'a.html',
    });
    expect(html.document.title).toBe('Page one');
    const fragment = await parseDocument({
      data: Buffer.from('<p>Frag\u0000ment only.</p>'),
      filename: 'b.html',
    });
    expect(fragment.document.sections[0]!.text).toBe('Fragment only.');
    expect(html.document.sections[0]!.text).toContain('Hello there');
    for (const parsed of [text, markdown, html]) {
      expect(JSON.stringify(parsed.document)).not.toMatch(/\\u000[0-8]/);
    }
  });

  it('reads text with many NULs (a log cut short by a crash) as text, not binary', async () => {
    const data = Buffer.concat([
      Buffer.from('Service started.\n'),
      Buffer.alloc(4096),
      Buffer.from('Service stopped.\n'),
    ]);
    const { kind, document } = await parseDocument({ data, filename: 'service.log.txt' });
    expect(kind).toBe('text');
    expect(document.sections[0]!.text).toBe('Service started.\nService stopped.');
  });

  it('binary data and empty files', async () => {
    const binary = await parseRefusal(
      parseDocument({ data: Buffer.from([1, 0, 2, 0, 3, 0, 4]), filename: 'x.txt' }),
    );
    expect(binary.reason).toBe('unsupported_type');
    // Random bytes have about one control byte in ten, NULs or not.
    const noise = Buffer.concat(
      Array.from({ length: 64 }, (_, i) => createHash('sha512').update(String(i)).digest()),
    );
    expect((await parseRefusal(parseDocument({ data: noise, filename: 'noise.txt' }))).reason).toBe(
      'unsupported_type',
    );
    const zeros = await parseRefusal(parseDocument({ data: Buffer.alloc(100), filename: 'zeros.txt' }));
    expect(zeros.reason).toBe('unsupported_type');
    const empty = await parseRefusal(parseDocument({ data: Buffer.from('  \n\n '), filename: 'x.md' }));
    expect(empty.reason).toBe('empty');
  });
});
