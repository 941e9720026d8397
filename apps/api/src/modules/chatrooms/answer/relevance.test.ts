import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../rag/types.ts';
import {
  COVERED_THRESHOLD,
  judgeRelevance,
  TITLE_AGREEMENT_CENTRE,
  TITLE_AGREEMENT_WEIGHT,
} from './relevance.ts';

const passage = (chunkId: number, title: string, content: string): Passage => ({
  item_uuid: `item-${chunkId}`,
  item_title: title,
  chunk_id: chunkId,
  content,
  score: 1,
  page: null,
  heading: null,
});

/** A knowledge of 120 chunks, 10 of them under the observatory's title unless told otherwise. */
const statsOf = (titleChunks: Record<string, number>) => ({
  chunks: 120,
  df: new Map(Object.entries({ colour: 40, roof: 4, observatory: 6, dome: 5 })),
  stopWords: new Set<string>(),
  titleChunks: new Map(Object.entries(titleChunks)),
});
const QUESTION = 'What colour is the roof of the observatory dome?';
/** Matches the question's two rarest words, not its roof: just below the threshold on its own. */
const best = passage(1, 'Observatory', 'The observatory dome was rebuilt in 1998 after the storm.');
const others = [
  'The observatory opens to visitors on clear nights.',
  'Its telescope was made in Jena.',
  'Guided tours start at the observatory gate.',
  'Tickets are sold at the town hall.',
  'A café serves hot drinks to the observatory visitors.',
];

describe('title agreement in the relevance decision', () => {
  it('covers a question whose passages gather under one title beyond chance, and not when they scatter', () => {
    const alone = judgeRelevance(QUESTION, [best], statsOf({ Observatory: 10 }));
    expect(alone.covered).toBe(false);
    expect(alone.score).toBeLessThan(COVERED_THRESHOLD);

    // Four of the five other passages come from the observatory's document (10 of 120 chunks).
    const gathered = [best, ...others.map((text, i) => passage(i + 2, i < 4 ? 'Observatory' : 'Town', text))];
    const together = judgeRelevance(QUESTION, gathered, statsOf({ Observatory: 10, Town: 20 }));
    const chance = 10 / 120;
    const agreement = (4 / 5 - chance) / (1 - chance);
    const evidence = TITLE_AGREEMENT_WEIGHT * (agreement - TITLE_AGREEMENT_CENTRE) * (1 - chance);
    expect(together.score).toBeCloseTo(alone.score + evidence, 2);
    expect(together.covered).toBe(true);
    expect(together.passages).toEqual([best]);

    // The same passages, each from a document of its own: no agreement, and so a little less.
    const scattered = gathered.map((p, i) => ({ ...p, item_title: `Document ${i}` }));
    const titles = Object.fromEntries(scattered.map((p) => [p.item_title, 10]));
    const apart = judgeRelevance(QUESTION, scattered, statsOf(titles));
    expect(apart.covered).toBe(false);
    expect(apart.score).toBeCloseTo(
      alone.score - TITLE_AGREEMENT_WEIGHT * TITLE_AGREEMENT_CENTRE * (1 - chance),
      2,
    );
  });

  it('reads agreement against chance: in a knowledge that is one document, passages always agree and it counts for nothing', () => {
    const alone = judgeRelevance(QUESTION, [best], statsOf({ Observatory: 10 }));
    const oneDocument = [best, ...others.map((text, i) => passage(i + 2, 'Observatory', text))];
    const decision = judgeRelevance(QUESTION, oneDocument, statsOf({ Observatory: 120 }));
    expect(decision).toMatchObject({ covered: false, score: alone.score });
    // Without titles in the statistics (an older caller), the decision is the lexical one.
    const { titleChunks: _, ...withoutTitles } = statsOf({});
    expect(judgeRelevance(QUESTION, oneDocument, withoutTitles).score).toBe(decision.score);
  });
});

describe('accents in the relevance decision', () => {
  /** A knowledge of 200 chunks under many titles: IDF and title agreement behave as in a real one. */
  const stats = {
    chunks: 200,
    df: new Map(
      Object.entries({ tesla: 12, moved: 30, gospic: 0, gospić: 2, family: 40, telescope: 1, buy: 25 }),
    ),
    stopWords: new Set<string>(),
    titleChunks: new Map(Object.entries({ 'Nikola Tesla': 40, Shop: 30 })),
  };
  const tesla = [
    passage(
      1,
      'Nikola Tesla',
      'In 1862 the Tesla family moved to Gospić, where his father worked as a parish priest.',
    ),
    passage(2, 'Nikola Tesla', 'Tesla was born in Smiljan, in the Austrian Empire.'),
    passage(3, 'Shop', 'The shop sells books about Tesla and Edison.'),
  ];

  it('covers a question typed without the knowledge’s accents: "Gospic" names "Gospić"', () => {
    const decision = judgeRelevance('When did the Tesla family move to Gospic?', tesla, stats);
    expect(decision.covered).toBe(true);
    expect(decision.passages[0]?.chunk_id).toBe(1);
    // The town is what decides: another town the knowledge does not name is not covered.
    expect(judgeRelevance('When did the Tesla family move to Zagreb?', tesla, stats).covered).toBe(false);
    // Written with the accent, the same question scores the same.
    expect(judgeRelevance('When did the Tesla family move to Gospić?', tesla, stats).score).toBe(
      decision.score,
    );
  });

  it('does not cover a question that shares only common words with the knowledge', () => {
    const decision = judgeRelevance(
      'Which telescope should the family buy for Tesla’s birthday?',
      tesla,
      stats,
    );
    expect(decision.covered).toBe(false);
    expect(decision.score).toBeLessThan(COVERED_THRESHOLD);
  });
});
