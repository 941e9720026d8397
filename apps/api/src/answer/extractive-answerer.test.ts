import { describe, expect, it } from 'vitest';
import type { Passage } from '../rag/types.ts';
import { citedNumbers, citedSources, snippetOf } from './citations.ts';
import { bestSentences, extractiveAnswer, relevantPassages } from './extractive-answerer.ts';

const passage = (over: Partial<Passage>): Passage => ({
  item_uuid: 'item-1',
  item_title: 'Manual',
  chunk_id: 1,
  content: '',
  score: 1,
  page: null,
  heading: null,
  ...over,
});

describe('citations', () => {
  it('reads [n], [n, m] and [n][m] within the passage count', () => {
    expect(citedNumbers('A [2]. B [1, 3][3]. C [9] and [0] and [x].', 3)).toEqual([1, 2, 3]);
    expect(citedNumbers('nothing cited', 3)).toEqual([]);
  });

  it('lists only cited passages, each with its number, and a heading-free snippet', () => {
    const passages = [
      passage({ chunk_id: 10, content: '# Title\n\nFirst.' }),
      passage({ chunk_id: 11, content: 'Second.' }),
    ];
    expect(citedSources('Only this [2].', passages)).toEqual([
      {
        index: 2,
        item_uuid: 'item-1',
        item_title: 'Manual',
        chunk_id: 11,
        page: null,
        heading: null,
        snippet: 'Second.',
      },
    ]);
    expect(snippetOf('# Title\n\nFirst   line.')).toBe('First line.');
    expect(snippetOf('word '.repeat(400)).length).toBeLessThanOrEqual(601);
  });
});

describe('extractive answerer', () => {
  const warranty = passage({
    chunk_id: 1,
    heading: 'Warranty',
    content: '# Warranty\n\nThe X200 has a three-year warranty. It covers parts.',
  });
  const returns = passage({
    chunk_id: 2,
    heading: 'Returns',
    content: 'Unused devices can be returned within 14 days.',
  });

  it('keeps passages sharing a term with the question (not just the item title), best first', () => {
    expect(relevantPassages('How long is the X200 warranty?', [returns, warranty])).toEqual([warranty]);
    expect(relevantPassages('What is in the manual?', [returns, warranty])).toEqual([]);
    expect(relevantPassages('the and of', [warranty])).toEqual([]);
  });

  it('quotes the best sentences in their order and streams a cited answer', async () => {
    expect(bestSentences('warranty parts', warranty.content)).toBe(
      'The X200 has a three-year warranty. It covers parts.',
    );
    const generation = extractiveAnswer('X200 warranty', [warranty]);
    let text = '';
    for await (const piece of generation.textStream) text += piece;
    expect(text).toContain('**Manual** (Warranty): The X200 has a three-year warranty.');
    expect(text.trimEnd().endsWith('[1]')).toBe(true);
    expect(await generation.usage).toBeUndefined();
  });

  describe('sentences end at sentence ends, not at every dot', () => {
    it.each([
      ['a property name', 'Set window.__x to true before the loader runs.'],
      ['an address', 'The agent listens on 127.0.0.1 only.'],
      ['a version', 'Upgrade to v1.2.3 to get the fix.'],
      ['an abbreviation inside a sentence', 'Pick a fast mirror, e.g. the nearest one, for the agent.'],
      ['an abbreviation before a capital', 'Use a scripting language, e.g. Python, for the agent.'],
      ['a title before a name', 'Ask Dr. Smith about the agent.'],
      ['a title at the start', 'Dr. Smith wrote the agent.'],
    ])('keeps %s whole', (_, sentence) => {
      // The matching sentence and, to make two, the first one.
      const content = `The weather was fine. ${sentence} Nothing else happened.`;
      expect(bestSentences('agent', content)).toBe(`The weather was fine. ${sentence}`);
    });

    it('still splits real sentences, after closing quotes and at paragraph breaks', () => {
      const content =
        'He said "the agent stopped." Then it restarted.\n\nAgent status page\n\nAll quiet today.';
      expect(bestSentences('agent stopped', content)).toBe('He said "the agent stopped." Agent status page');
    });

    it('shortens an overlong sentence at a word, never inside one', () => {
      const long = `The agent ${'reconnects patiently '.repeat(30)}until it succeeds.`;
      const quoted = bestSentences('agent', long);
      expect(quoted.endsWith('…')).toBe(true);
      expect(long).toContain(quoted.slice(0, -1));
      expect(long.charAt(quoted.length - 1)).toBe(' ');
    });
  });
});
