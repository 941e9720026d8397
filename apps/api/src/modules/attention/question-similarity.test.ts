import { describe, expect, it } from 'vitest';
import { fold, jaccard, mostSimilar, questionTokens, SIMILAR_AT } from './question-similarity.ts';

describe('question similarity', () => {
  it('keeps the meaningful words, folded, without case, accents or punctuation', () => {
    expect(questionTokens('Do you SHIP to Canada??')).toEqual(['canada', 'ship']);
    expect(questionTokens('Shipping to Canada, please?')).toEqual(['canada', 'ship']);
    expect(questionTokens('Où est le café ?')).toEqual(['caf', 'est', 'le', 'ou']);
    // Only function words: compared by all of them.
    expect(questionTokens('Who are you?')).toEqual(['are', 'who', 'you']);
    expect(questionTokens('')).toEqual([]);
  });

  it('folds common suffixes the same way on both sides', () => {
    expect(['shipping', 'shipped', 'ships', 'ship'].map(fold)).toEqual(['ship', 'ship', 'ship', 'ship']);
    expect(['prices', 'price', 'policies', 'policy'].map(fold)).toEqual(['pric', 'pric', 'policy', 'policy']);
    expect(['pass', 'bus', 'calling'].map(fold)).toEqual(['pass', 'bus', 'call']);
  });

  it('groups at a token-set Jaccard of 0.6 or more, with the most similar group', () => {
    expect(jaccard(['a', 'b'], ['a', 'b'])).toBe(1);
    expect(jaccard(['a', 'b', 'c'], ['a', 'b', 'd'])).toBe(0.5);
    expect(jaccard([], [])).toBe(1);
    expect(jaccard(['a'], [])).toBe(0);
    const groups = [
      { id: 1, tokens: questionTokens('Do you ship to Mexico?') },
      { id: 2, tokens: questionTokens('How long does shipping to Canada take?') },
      { id: 3, tokens: questionTokens('Do you ship to Canada?') },
    ];
    expect(mostSimilar(questionTokens('Can you ship to Canada?'), groups)?.id).toBe(3);
    expect(mostSimilar(questionTokens('Is there a student discount?'), groups)).toBeUndefined();
    expect(SIMILAR_AT).toBe(0.6);
  });
});

describe('plainExcerpt', () => {
  it('drops markdown marks and citation numbers, and cuts long answers', async () => {
    const { plainExcerpt } = await import('./get-attention.ts');
    expect(
      plainExcerpt('Here is what the knowledge says:\n- **Handbook** (Lamps): cleaned on `Tuesday`. [1]'),
    ).toBe('Here is what the knowledge says: Handbook (Lamps): cleaned on Tuesday.');
    expect(plainExcerpt('word '.repeat(100), 20)).toBe('word word word word…');
  });
});
