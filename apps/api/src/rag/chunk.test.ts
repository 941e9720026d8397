import { describe, expect, it } from 'vitest';
import { type Chunk, chunkDocument, documentText } from './chunk.ts';
import type { ParsedDocument } from './types.ts';

const doc = (text: string, extra: Partial<ParsedDocument> = {}): ParsedDocument => ({
  title: 'T',
  sections: [{ text }],
  ...extra,
});

/** Every chunk's content is exactly the slice of the document text its offsets name. */
function expectOffsetsExact(document: ParsedDocument, chunks: Chunk[]) {
  const text = documentText(document);
  for (const chunk of chunks) expect(text.slice(chunk.startOffset, chunk.endOffset)).toBe(chunk.content);
}

const sentence = (i: number) => `Sentence number ${i} says something about topic ${i}.`;

describe('chunkDocument', () => {
  it('keeps a short document whole', () => {
    const document = doc('Just one paragraph. With two sentences.');
    expect(chunkDocument(document)).toEqual([
      {
        ordinal: 0,
        content: 'Just one paragraph. With two sentences.',
        page: null,
        heading: null,
        startOffset: 0,
        endOffset: 39,
      },
    ]);
  });

  it('returns no chunk for an empty or blank document', () => {
    expect(chunkDocument(doc(''))).toEqual([]);
    expect(chunkDocument(doc('  \n\n \t\n'))).toEqual([]);
    expect(chunkDocument({ title: 'T', sections: [] })).toEqual([]);
  });

  it('splits at headings and records the heading path', () => {
    const text = [
      '# Guide',
      'Intro text.',
      '## Setup',
      'Install it.',
      '### Linux',
      'Use apt.',
      '## Usage',
      'Run it.',
    ].join('\n');
    const document = doc(`Preface before any heading.\n\n${text}`);
    const chunks = chunkDocument(document);
    expect(chunks.map((c) => [c.heading, c.content])).toEqual([
      [null, 'Preface before any heading.'],
      ['Guide', '# Guide\nIntro text.'],
      ['Guide › Setup', '## Setup\nInstall it.'],
      ['Guide › Setup › Linux', '### Linux\nUse apt.'],
      ['Guide › Usage', '## Usage\nRun it.'],
    ]);
    expect(chunks.map((c) => c.ordinal)).toEqual([0, 1, 2, 3, 4]);
    expectOffsetsExact(document, chunks);
  });

  it('ignores heading-like lines inside code fences', () => {
    const document = doc('# Real\n```\n# not a heading\n```\nAfter.');
    const chunks = chunkDocument(document);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.heading).toBe('Real');
  });

  it('cuts long text at sentence ends, within the size, with overlapping sentences', () => {
    const text = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
    const document = doc(text);
    const chunks = chunkDocument(document, { maxChars: 300, overlapChars: 120 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.content.length).toBeLessThanOrEqual(300);
      expect(chunk.content).toMatch(/^Sentence number \d+ .*\.$/);
    }
    // Consecutive chunks share their boundary sentences, and together cover every sentence.
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.startOffset).toBeLessThan(chunks[i - 1]!.endOffset);
      expect(chunks[i]!.startOffset).toBeGreaterThan(chunks[i - 1]!.startOffset);
    }
    for (let i = 0; i < 40; i++) expect(chunks.some((c) => c.content.includes(sentence(i)))).toBe(true);
    expect(chunks.at(-1)?.endOffset).toBe(text.length);
    expectOffsetsExact(document, chunks);
  });

  it('does not overlap across a heading', () => {
    const body = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' ');
    const document = doc(`# A\n${body}\n\n# B\nOther section.`);
    const chunks = chunkDocument(document, { maxChars: 250, overlapChars: 100 });
    const b = chunks.filter((c) => c.heading === 'B');
    expect(b.map((c) => c.content)).toEqual(['# B\nOther section.']);
  });

  it('cuts a sentence longer than a chunk at whitespace', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const document = doc(words);
    const chunks = chunkDocument(document, { maxChars: 100, overlapChars: 0 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.content.length).toBeLessThanOrEqual(100);
      expect(chunk.content).not.toMatch(/^\s|\s$/);
    }
    expect(chunks.map((c) => c.content).join(' ')).toBe(words);
    expectOffsetsExact(document, chunks);
  });

  it('keeps the page of each section and never spans two pages', () => {
    const document: ParsedDocument = {
      title: 'Report',
      sections: [
        { text: '# Results\nPage one text.', page: 1 },
        { text: 'Page two continues the results.', page: 2 },
      ],
    };
    const chunks = chunkDocument(document);
    expect(chunks.map((c) => [c.page, c.heading, c.content])).toEqual([
      [1, 'Results', '# Results\nPage one text.'],
      // The heading carries over to the next page.
      [2, 'Results', 'Page two continues the results.'],
    ]);
    expectOffsetsExact(document, chunks);
  });

  it('keeps paragraphs of a section together when they fit', () => {
    const document = doc('First paragraph.\n\nSecond paragraph.\n\n\nThird.');
    const chunks = chunkDocument(document);
    expect(chunks.map((c) => c.content)).toEqual(['First paragraph.\n\nSecond paragraph.\n\n\nThird.']);
  });

  it('splits sentences with the language of the document', () => {
    const text = 'Dr. Smith kam um 10 Uhr an. Er sagte: „Wir beginnen.“ Danach gingen alle.';
    const chunks = chunkDocument(doc(text, { language: 'de' }), { maxChars: 40, overlapChars: 0 });
    expect(chunks.every((c) => c.content.length <= 40)).toBe(true);
    expect(chunks[0]?.content.startsWith('Dr. Smith')).toBe(true);
  });
});
