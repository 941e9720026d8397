import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../rag/types.ts';
import { citedNumbers, citedSources, snippetOf } from './citations.ts';
import { composeAnswer, streamedText } from './extractive-answerer.ts';
import { languageOf, NOT_COVERED_ANSWERS, notCoveredAnswer } from './no-answer.ts';
import { questionTypeOf } from './question-type.ts';
import { judgeRelevance, sameTerm } from './relevance.ts';
import { sentencesOf, shorten } from './sentences.ts';
import { smallTalkOf, smallTalkReply } from './small-talk.ts';
import { termsOf } from './terms.ts';

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

/** Word statistics of a small knowledge base: `chunks` chunks, and how many hold each word. */
const statsOf = (chunks: number, df: Record<string, number>, stopWords: string[] = []) => ({
  chunks,
  df: new Map(Object.entries(df)),
  stopWords: new Set(stopWords),
});

async function textOf(generation: { textStream: AsyncIterable<string> }) {
  let text = '';
  for await (const piece of generation.textStream) text += piece;
  return text;
}

describe('relevance decision', () => {
  const warranty = passage({
    chunk_id: 1,
    heading: 'Warranty',
    content: '# Warranty\n\nThe X200 has a three-year warranty. It covers parts and labour.',
  });
  const returns = passage({ chunk_id: 2, content: 'Unused devices can be returned within 14 days.' });
  const parking = passage({
    chunk_id: 3,
    item_title: 'Café',
    content: 'Parking is free for customers of the café on weekdays after six.',
  });
  const stats = statsOf(200, {
    x200: 3,
    warranty: 2,
    parts: 20,
    free: 40,
    weekdays: 5,
    customers: 60,
    open: 8,
  });

  it('covers a question whose rare words the best passage holds, and passes only such passages', () => {
    const decision = judgeRelevance('How long is the X200 warranty?', [returns, warranty], stats);
    expect(decision.covered).toBe(true);
    expect(decision.passages).toEqual([warranty]);
    expect(decision.score).toBeGreaterThan(0.9);
  });

  it('does not cover a question that shares only a common word, or a word absent from the whole knowledge', () => {
    // "free" is in the passage but "telescope" and "astronomer" are nowhere in the knowledge.
    const telescope = judgeRelevance('Which free telescope should an astronomer buy?', [parking], stats);
    expect(telescope.covered).toBe(false);
    expect(telescope.passages).toEqual([]);
    expect(telescope.score).toBeLessThan(0.5);
    // One shared word was enough before; here the rare word of the question decides.
    expect(judgeRelevance('Is the café open on public holidays?', [parking], stats).covered).toBe(false);
    expect(judgeRelevance('the and of', [warranty], stats)).toMatchObject({ covered: false, score: 0 });
  });

  it('weighs rare words over common ones', () => {
    const common = judgeRelevance('customers parts warranty', [parking], stats);
    const rare = judgeRelevance('customers parts warranty', [warranty], stats);
    // Each passage matches words of the question, but the warranty passage the rare one.
    expect(rare.score).toBeGreaterThan(common.score);
  });

  it('lets vector similarity carry a paraphrase that shares fewer words', () => {
    const question = 'Are parts of the X200 guaranteed?';
    expect(judgeRelevance(question, [warranty], stats).covered).toBe(false);
    const similar = new Map([[warranty.chunk_id, 0.82]]);
    expect(judgeRelevance(question, [warranty], stats, similar).covered).toBe(true);
  });

  it('matches word forms and one-letter slips in long words', () => {
    const term = (word: string) => termsOf(word)[0]!;
    expect(sameTerm(term('abbreviated'), term('abbreviation'))).toBe(true);
    expect(sameTerm(term('traditionall'), term('traditional'))).toBe(true);
    expect(sameTerm(term('art'), term('article'))).toBe(false);
  });
});

describe('sentence choice', () => {
  const marathon = passage({
    chunk_id: 4,
    item_title: 'Marathon records',
    content:
      'Ana Ruiz finished her first marathon in 1998. She was 61 years old at the time. ' +
      'Before Ruiz, the oldest woman to finish the course was Ida Keller, at 68. ' +
      'The course runs along the river.',
  });

  it('answers "who was the oldest … before X" with the sentence naming the answer, not X\'s age', () => {
    const question = 'Who was the oldest woman to finish the marathon before Ana Ruiz?';
    const decision = judgeRelevance(question, [marathon], statsOf(50, { ruiz: 2, oldest: 1, marathon: 3 }));
    const { text, cited } = composeAnswer(question, decision.weighted, decision.passages);
    expect(text).toContain('Ida Keller');
    expect(text).not.toContain('61 years');
    expect(text.endsWith('[1]')).toBe(true);
    expect(cited).toEqual([marathon]);
  });

  it('prefers a date for "when" and a number for "how many"', () => {
    const shop = passage({
      chunk_id: 5,
      content:
        'The shop on Main Street has many loyal customers. It opened in March 2011 on Main Street. ' +
        'The shop on Main Street employs 14 people today.',
    });
    const stats = statsOf(30, { shop: 3, main: 2, street: 2, opened: 1, employs: 1 });
    const when = judgeRelevance('When did the shop on Main Street open?', [shop], stats);
    expect(composeAnswer('When did the shop on Main Street open?', when.weighted, when.passages).text).toBe(
      'It opened in March 2011 on Main Street. [1]',
    );
    const many = judgeRelevance('How many people does the shop on Main Street employ?', [shop], stats);
    expect(
      composeAnswer('How many people does the shop on Main Street employ?', many.weighted, many.passages)
        .text,
    ).toContain('14 people');
    expect(questionTypeOf('In which year did it open?')).toBe('date');
    expect(questionTypeOf('Wie viele Mitarbeiter gibt es?')).toBe('number');
    expect(questionTypeOf('¿Quién fundó la tienda?')).toBe('person');
  });

  it('adds a second passage only when it holds an answer of its own', () => {
    const hours = passage({
      chunk_id: 6,
      item_title: 'Hours',
      content: 'We open at 9 on weekdays and at 10 on Saturdays.',
    });
    const parking = passage({
      chunk_id: 7,
      item_title: 'Parking',
      content: 'On weekdays the car park next to the shop is free for customers.',
    });
    const question = 'When do you open on weekdays?';
    const decision = judgeRelevance(question, [hours, parking], statsOf(40, { open: 2, weekdays: 2 }));
    const { text, cited } = composeAnswer(question, decision.weighted, decision.passages);
    expect(text).toBe('We open at 9 on weekdays and at 10 on Saturdays. [1]');
    expect(cited).toEqual([hours]);
  });

  it('streams the text in word-sized pieces with no usage of its own', async () => {
    const generation = streamedText('The X200 has a three-year warranty. [1]');
    expect(await textOf(generation)).toBe('The X200 has a three-year warranty. [1]');
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
      expect(sentencesOf(`The weather was fine. ${sentence} Nothing else happened.`)).toEqual([
        'The weather was fine.',
        sentence,
        'Nothing else happened.',
      ]);
    });

    it('still splits real sentences, after closing quotes and at paragraph breaks', () => {
      expect(
        sentencesOf('He said "the agent stopped." Then it restarted.\n\nAgent status page\n\nAll quiet.'),
      ).toEqual(['He said "the agent stopped."', 'Then it restarted.', 'Agent status page', 'All quiet.']);
    });

    it('shortens an overlong sentence at a word, never inside one', () => {
      const long = `The agent ${'reconnects patiently '.repeat(30)}until it succeeds.`;
      const quoted = shorten(long);
      expect(quoted.endsWith('…')).toBe(true);
      expect(long).toContain(quoted.slice(0, -1));
      expect(long.charAt(quoted.length - 1)).toBe(' ');
    });
  });
});

describe('small talk', () => {
  it.each([
    ['hi', 'greeting'],
    ['Hello there!', 'greeting'],
    ['¡Hola!', 'greeting'],
    ['Guten Morgen', 'greeting'],
    ['thanks!', 'thanks'],
    ['Merci beaucoup', 'thanks'],
    ['who are you?', 'identity'],
    ['Wer bist du?', 'identity'],
    ['bye', 'farewell'],
  ])('knows %j as %s', (message, kind) => {
    expect(smallTalkOf(message)).toBe(kind);
  });

  it('leaves questions alone, even ones that start with a greeting', () => {
    expect(smallTalkOf('hi, when do you open?')).toBeNull();
    expect(smallTalkOf('Who are your suppliers?')).toBeNull();
    expect(smallTalkOf('thanks to whom was the shop saved?')).toBeNull();
  });

  it("replies with the application's greeting, and in the message's language", () => {
    const app = { name: 'Handbook', greeting: 'Welcome to the handbook!' };
    expect(smallTalkReply('greeting', 'hi', app)).toBe('Welcome to the handbook!');
    expect(smallTalkReply('thanks', 'danke', app)).toBe('Gern geschehen! Kann ich sonst noch helfen?');
    expect(smallTalkReply('identity', 'who are you?', app)).toContain('Handbook');
  });
});

describe('the refusal', () => {
  it("is the owner's words when given, else the default in the question's language", () => {
    expect(notCoveredAnswer('  Ask our front desk.  ', 'Wann öffnet ihr?')).toBe('Ask our front desk.');
    expect(notCoveredAnswer('', 'When do you open?')).toBe("Sorry, I don't have information about that.");
    expect(notCoveredAnswer('', 'Wann öffnet ihr am Sonntag?')).toBe(NOT_COVERED_ANSWERS.de);
    expect(notCoveredAnswer('', 'Où est le magasin ?')).toBe(NOT_COVERED_ANSWERS.fr);
    expect(notCoveredAnswer('', '¿Dónde está la tienda?')).toBe(NOT_COVERED_ANSWERS.es);
    expect(languageOf('Kenya?')).toBe('en');
  });

  it('tells the language of short questions by their small words and their letters', () => {
    const asked = {
      en: [
        'What is the capital of Peru?',
        'Does the Zürich office sell tickets?',
        'What does "déjà vu" mean?',
      ],
      de: ['Hauptstadt von Peru?', 'Rückgabe ohne Kassenbon möglich?', 'Abo kündigen'],
      fr: ["Qui a fondé l'entreprise ?", 'Y a-t-il du Wi-Fi ?', 'Résilier mon abonnement'],
      es: ['¿Cuál es la capital de Perú?', 'Mi pedido nunca llegó', '¿Aceptan tarjetas de crédito?'],
    };
    for (const [language, questions] of Object.entries(asked)) {
      for (const question of questions)
        expect([question, languageOf(question)]).toEqual([question, language]);
    }
  });
});
