import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../rag/types.ts';
import { relatedWords } from './lexicon.ts';
import {
  COVERED_THRESHOLD,
  judgeRelevance,
  NO_COMBINER,
  oneSlip,
  RANKING_AGREEMENT_CENTRE,
  RANKING_AGREEMENT_WEIGHT,
  RELATED_CREDIT,
  TITLE_AGREEMENT_CENTRE,
  TITLE_AGREEMENT_WEIGHT,
  type WeightedTerm,
} from './relevance.ts';
import { termsOf } from './terms.ts';

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
/** The passages' own scores, without decision 093's signals of the question as a whole. */
const ALONE = { combiner: NO_COMBINER };
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
    const alone = judgeRelevance(QUESTION, [best], statsOf({ Observatory: 10 }), undefined, ALONE);
    expect(alone.covered).toBe(false);
    expect(alone.score).toBeLessThan(COVERED_THRESHOLD);

    // Four of the five other passages come from the observatory's document (10 of 120 chunks).
    const gathered = [best, ...others.map((text, i) => passage(i + 2, i < 4 ? 'Observatory' : 'Town', text))];
    const together = judgeRelevance(
      QUESTION,
      gathered,
      statsOf({ Observatory: 10, Town: 20 }),
      undefined,
      ALONE,
    );
    const chance = 10 / 120;
    const agreement = (4 / 5 - chance) / (1 - chance);
    const evidence = TITLE_AGREEMENT_WEIGHT * (agreement - TITLE_AGREEMENT_CENTRE) * (1 - chance);
    expect(together.score).toBeCloseTo(alone.score + evidence, 2);
    expect(together.covered).toBe(true);
    expect(together.passages).toEqual([best]);

    // The same passages, each from a document of its own: no agreement, and so a little less.
    const scattered = gathered.map((p, i) => ({ ...p, item_title: `Document ${i}` }));
    const titles = Object.fromEntries(scattered.map((p) => [p.item_title, 10]));
    const apart = judgeRelevance(QUESTION, scattered, statsOf(titles), undefined, ALONE);
    expect(apart.covered).toBe(false);
    expect(apart.score).toBeCloseTo(
      alone.score - TITLE_AGREEMENT_WEIGHT * TITLE_AGREEMENT_CENTRE * (1 - chance),
      2,
    );
  });

  it('reads agreement against chance: in a knowledge that is one document, passages always agree and it counts for nothing', () => {
    const alone = judgeRelevance(QUESTION, [best], statsOf({ Observatory: 10 }), undefined, ALONE);
    const oneDocument = [best, ...others.map((text, i) => passage(i + 2, 'Observatory', text))];
    const decision = judgeRelevance(QUESTION, oneDocument, statsOf({ Observatory: 120 }), undefined, ALONE);
    expect(decision).toMatchObject({ covered: false, score: alone.score });
    // Without titles in the statistics (an older caller), the decision is the lexical one.
    const { titleChunks: _, ...withoutTitles } = statsOf({});
    expect(judgeRelevance(QUESTION, oneDocument, withoutTitles, undefined, ALONE).score).toBe(decision.score);
  });
});

describe('title agreement over the wider ranking', () => {
  // Six quoted passages, two of them from the observatory's document (10 of 120 chunks).
  const quoted = [
    best,
    ...others.map((text, i) => passage(i + 2, i < 1 ? 'Observatory' : `Other ${i}`, text)),
  ];
  const titles = { Observatory: 10, ...Object.fromEntries(others.map((_, i) => [`Other ${i}`, 10])) };
  const chance = 10 / 120;
  const agreementOf = (share: number) => Math.max(0, (share - chance) / (1 - chance));
  const more = (title: (i: number) => string) =>
    Array.from({ length: 14 }, (_, i) => passage(i + 10, title(i), 'Another passage of the ranking.'));

  it('adds what the ranking beyond the quoted passages says: more of the same document, more evidence', () => {
    const six = judgeRelevance(QUESTION, quoted, statsOf(titles), undefined, ALONE);
    // Only the quoted passages: the decision of 075, however long the ranking would have been.
    expect(
      judgeRelevance(QUESTION, quoted, statsOf(titles), undefined, { ...ALONE, ranking: quoted }).score,
    ).toBe(six.score);

    // Twelve of the fourteen further ranks are the observatory's: 13 of the other 19 agree with the best.
    const gathered = [...quoted, ...more((i) => (i < 12 ? 'Observatory' : 'Other 0'))];
    const together = judgeRelevance(QUESTION, quoted, statsOf(titles), undefined, {
      ...ALONE,
      ranking: gathered,
    });
    const gain = RANKING_AGREEMENT_WEIGHT * (agreementOf(13 / 19) - RANKING_AGREEMENT_CENTRE) * (1 - chance);
    expect(gain).toBeGreaterThan(0);
    expect(together.score).toBeCloseTo(six.score + gain, 2);
    // Only titles are read beyond the quoted passages: none of them is ever answered from.
    expect(together.passages.every((p) => quoted.includes(p))).toBe(true);

    // Scattered further ranks: 1 of 19 agrees, a little less than the six alone.
    const scattered = [...quoted, ...more((i) => `Further ${i}`)];
    const apart = judgeRelevance(QUESTION, quoted, statsOf(titles), undefined, {
      ...ALONE,
      ranking: scattered,
    });
    expect(apart.score).toBeCloseTo(
      six.score + RANKING_AGREEMENT_WEIGHT * (agreementOf(1 / 19) - RANKING_AGREEMENT_CENTRE) * (1 - chance),
      2,
    );
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

describe('misspelt words in the relevance decision (decision 101)', () => {
  it('reads one slip between stems of enough letters: a letter added, dropped, changed, or two neighbours swapped', () => {
    expect(oneSlip('zeria', 'zeira', 5)).toBe(true);
    expect(oneSlip('gaurd', 'guard', 5)).toBe(true);
    expect(oneSlip('mnemiopsi', 'mnemiposi', 5)).toBe(true);
    expect(oneSlip('pleurobrachia', 'pleuobrachia', 5)).toBe(true);
    expect(oneSlip('captain', 'captainn', 5)).toBe(true);
    expect(oneSlip('sould', 'soul', 5)).toBe(false);
    expect(oneSlip('abcdef', 'badcef', 5)).toBe(false);
    expect(oneSlip('zeria', 'zeira', 0)).toBe(false);
  });

  /** A knowledge of 200 chunks: "Zeira" is in two of them, "Zeria" and "trial" in none. */
  const stats = (df: Record<string, number>) => ({
    chunks: 200,
    df: new Map(Object.entries({ galor: 2, zeira: 2, showed: 30, inequality: 20, trail: 3, ...df })),
    stopWords: new Set<string>(),
    titleChunks: new Map(Object.entries({ 'Economic inequality': 40, Parks: 30 })),
  });
  const passages = [
    passage(
      1,
      'Economic inequality',
      'In 1993, Galor and Zeira showed that inequality has a lasting effect.',
    ),
    passage(2, 'Parks', 'The trail starts at the north gate of the park.'),
  ];

  it('matches a word no chunk holds by a passage word one slip from it: "Zeria" is the passage’s "Zeira"', () => {
    const question = 'When did Galor and Zeria show inequality?';
    const decision = judgeRelevance(question, passages, stats({ zeria: 0 }));
    const strict = judgeRelevance(question, passages, stats({ zeria: 0 }), undefined, { absentSlip: 0 });
    expect(decision.covered).toBe(true);
    expect(decision.passages[0]?.chunk_id).toBe(1);
    expect(strict.covered).toBe(false);
    expect(decision.score).toBeGreaterThan(strict.score);
  });

  it('leaves a word the knowledge holds to sameTerm: "trial" is not the passage’s "trail" when some chunk says "trial"', () => {
    const question = 'Where does the trial start?';
    const known = stats({ trial: 4 });
    expect(judgeRelevance(question, passages, known).score).toBe(
      judgeRelevance(question, passages, known, undefined, { absentSlip: 0 }).score,
    );
    // In no chunk, it is read as a slip of "trail".
    const absent = stats({ trial: 0 });
    expect(judgeRelevance(question, passages, absent).score).toBeGreaterThan(
      judgeRelevance(question, passages, absent, undefined, { absentSlip: 0 }).score,
    );
  });
});

describe('word knowledge in the relevance decision (WordNet)', () => {
  const statsWith = (df: Record<string, number>) => ({
    chunks: 200,
    df: new Map(Object.entries(df)),
    stopWords: new Set<string>(),
  });

  it('joins irregular forms to their base word, which the stemmer does not: "burnt" is "burned", "fled" is "flee"', () => {
    expect(termsOf('burnt')).toEqual(termsOf('burned'));
    expect(termsOf('fled')).toEqual(termsOf('flee'));
    expect(termsOf('children')).toEqual(termsOf('child'));
    const dynamos = [passage(1, 'Steam', 'The dynamos burned out when the governor failed in 1881.')];
    const stats = statsWith({ dynamos: 2, burnt: 0, burned: 1, caused: 30, governor: 3 });
    const decision = judgeRelevance('What caused the dynamos to be burnt out?', dynamos, stats);
    expect(decision.score).toBe(
      judgeRelevance('What caused the dynamos to be burned out?', dynamos, stats).score,
    );
    expect(decision.covered).toBe(true);
  });

  const painters = [passage(1, 'Delft', 'Vermeer was a renowned painter in Delft.')];
  const question = 'Which painter was famous in Delft?';

  it('credits a question word the passage lacks with part of its weight when the passage holds a synonym', () => {
    expect(relatedWords('famous')).toContain('renowned');
    const stats = statsWith({ painter: 3, famous: 4, renowned: 1, delft: 2 });
    const related = judgeRelevance(question, painters, stats, undefined, ALONE);
    const none = judgeRelevance(question, painters, stats, undefined, { ...ALONE, relatedCredit: 0 });
    const famous = related.weighted.find((w) => w.term === termsOf('famous')[0])!;
    const total = related.weighted.reduce((sum, w) => sum + w.weight, 0);
    // One passage, no title evidence: whole and near coverage both gain the credited share.
    expect(related.score).toBeCloseTo(none.score + (RELATED_CREDIT * famous.weight) / total, 2);
    expect(related.score).toBeGreaterThan(none.score);
  });

  it('leaves a word the knowledge does not hold at all uncredited, and a question in another language', () => {
    // "famous" in no chunk: the strongest evidence the question is about something else stays whole.
    const unknown = statsWith({ painter: 3, famous: 0, renowned: 1, delft: 2 });
    expect(judgeRelevance(question, painters, unknown).score).toBe(
      judgeRelevance(question, painters, unknown, undefined, { relatedCredit: 0 }).score,
    );
    // WordNet is English: a German question gets no credit from it, whatever its words.
    const known = statsWith({ maler: 3, famous: 4, renowned: 1, delft: 2 });
    const german = 'Welcher Maler ist in Delft so famous, und wer ist es?';
    expect(judgeRelevance(german, painters, known).score).toBe(
      judgeRelevance(german, painters, known, undefined, { relatedCredit: 0 }).score,
    );
  });
});

describe('the question as a whole (decision 093)', () => {
  /** A knowledge of 200 chunks: 10 under the observatory's title, 30 under the town's. */
  const stats = {
    chunks: 200,
    df: new Map(Object.entries({ dome: 4, observatory: 8, painted: 12, green: 20, night: 30, 1998: 6 })),
    stopWords: new Set<string>(),
    titleChunks: new Map(Object.entries({ Observatory: 10, Town: 30 })),
  };
  const dome = passage(
    1,
    'Observatory',
    'The observatory dome was painted green in 1998. Visitors climb to the dome at night.',
  );
  const hall = passage(2, 'Town', 'The town hall was painted green at night.');
  const QUESTION_93 = 'When was the dome of the observatory painted green at night?';
  /** The passages' own scores, and what one signal alone, weighing `weight`, makes of them. */
  const scored = (
    signal: keyof typeof NO_COMBINER,
    weight: number,
    passages = [dome, hall],
    question = QUESTION_93,
  ) => ({
    alone: judgeRelevance(question, passages, stats, undefined, ALONE),
    with: judgeRelevance(question, passages, stats, undefined, {
      combiner: { ...NO_COMBINER, [signal]: weight },
    }),
  });
  const shareOf = (weighted: readonly WeightedTerm[], words: string[]) => {
    const terms = words.flatMap((w) => termsOf(w));
    const total = weighted.reduce((sum, w) => sum + w.weight, 0);
    return weighted.filter((w) => terms.includes(w.term)).reduce((sum, w) => sum + w.weight, 0) / total;
  };

  it('reads the share of the question’s consecutive words that stand together in the best passage', () => {
    // dome·observatory apart ("observatory dome" is the other way round), observatory·painted,
    // painted·green and green·night (within three words: "green in 1998. Visitors climb" is not) …
    const { alone, with: phrase } = scored('phrase', -0.3);
    // … so observatory·painted and painted·green: 2 of the 4 pairs.
    expect(phrase.score).toBeCloseTo(alone.score - 0.3 * (2 / 4), 3);
  });

  it('reads the best single sentence’s share of the question’s weight', () => {
    const { alone, with: sentence } = scored('sentence', -0.2);
    // The first sentence holds all but "night".
    const share = shareOf(alone.weighted, ['dome', 'observatory', 'painted', 'green']);
    expect(sentence.score).toBeCloseTo(alone.score - 0.2 * share, 3);
  });

  it('reads the best passage’s lead over passages of other documents, and whether it is the first', () => {
    const { alone, with: margin } = scored('margin', -0.5);
    expect(margin.score).toBeCloseTo(
      alone.score - 0.5 * (alone.score - alone.coverage.get(hall.chunk_id)!),
      3,
    );
    const first = scored('first', -0.1);
    expect(first.with.score).toBeCloseTo(first.alone.score - 0.1, 3);
    const second = scored('first', -0.1, [hall, dome]);
    expect(second.with.score).toBe(second.alone.score);
  });

  it('reads whether the best passage holds what the question asks for: a date for "when"', () => {
    const dated = scored('untyped', -0.1);
    expect(dated.with.score).toBe(dated.alone.score);
    const undated = passage(
      1,
      'Observatory',
      'The observatory dome was painted green. Visitors climb to the dome at night.',
    );
    const { alone, with: untyped } = scored('untyped', -0.1, [undated, hall]);
    expect(untyped.score).toBeCloseTo(alone.score - 0.1, 3);
  });

  it('reads title agreement over the wider ranking', () => {
    const ranking = [
      dome,
      hall,
      passage(3, 'Observatory', 'The dome turns.'),
      passage(4, 'Observatory', 'Tours.'),
    ];
    const alone = judgeRelevance(QUESTION_93, [dome, hall], stats, undefined, { ...ALONE, ranking });
    const agreed = judgeRelevance(QUESTION_93, [dome, hall], stats, undefined, {
      ranking,
      combiner: { ...NO_COMBINER, rankingAgreement: -0.2 },
    });
    // Two of the three others are the observatory's, which holds 10 of the 200 chunks.
    const chance = 10 / 200;
    expect(agreed.score).toBeCloseTo(alone.score - 0.2 * ((2 / 3 - chance) / (1 - chance)), 3);
  });

  it('never lets the other signals raise a question with a word no chunk holds: they may only lower it', () => {
    const question = 'When was the dome of the observatory painted green on Vega?';
    const lowered = scored('absent', -0.4, [dome, hall], question);
    expect(lowered.with.score).toBeCloseTo(
      lowered.alone.score - 0.4 * shareOf(lowered.alone.weighted, ['Vega']),
      3,
    );
    const raised = scored('constant', 0.3, [dome, hall], question);
    expect(raised.with.score).toBe(raised.alone.score);
    // Without the unknown word the same constant raises it.
    const known = scored('constant', -0.3);
    expect(known.with.score).toBeCloseTo(known.alone.score - 0.3, 3);
  });

  it('raises only the best passage: another passes on its own score, and every passage is lowered with the question', () => {
    const raised = judgeRelevance(QUESTION_93, [dome, hall], stats, undefined, {
      combiner: { ...NO_COMBINER, constant: 0.5 },
    });
    const alone = judgeRelevance(QUESTION_93, [dome, hall], stats, undefined, ALONE);
    expect(raised.coverage.get(hall.chunk_id)).toBe(alone.coverage.get(hall.chunk_id));
    expect(raised.passages.includes(hall)).toBe(alone.passages.includes(hall));
    const lowered = judgeRelevance(QUESTION_93, [dome, hall], stats, undefined, {
      combiner: { ...NO_COMBINER, constant: -0.1 },
    });
    expect(lowered.coverage.get(hall.chunk_id)).toBeCloseTo(alone.coverage.get(hall.chunk_id)! - 0.1, 3);
  });
});
