import { describe, expect, it } from 'vitest';
import { lexicalScore, QA_LEXICAL_MATCH, QA_VECTOR_MATCH, qaScore } from './qa-match.ts';

/**
 * The calibration table of QA_LEXICAL_MATCH (decision 070): rewordings of a pair's question that
 * keep its words must match; questions about something else that share some of them must not.
 */
const SAME: Array<[string, string]> = [
  ['How do I reset my password?', 'how can I reset the password'],
  ['How do I reset my password?', 'Resetting my password — how?'],
  ['How do I reset my password?', 'password reset'],
  ['What are your opening hours?', 'opening hours?'],
  ['What are your opening hours?', 'When are you open? Opening hours please'],
  ['Do you ship to Canada?', 'Do you ship to canada'],
  ['Do you ship to Canada?', 'Shipping to Canada?'],
  ['How much does the Pro plan cost per month?', 'Pro plan cost per month'],
  ['Can I cancel my subscription at any time?', 'can I cancel subscriptions at any time'],
  ['Where is my invoice?', 'where are my invoices'],
];
const DIFFERENT: Array<[string, string]> = [
  ['How do I reset my password?', 'How do I reset my router?'],
  ['How do I reset my password?', 'Can I reset my password from the mobile app?'],
  ['What are your opening hours?', 'What are your opening hours on Sunday?'],
  ['Do you ship to Canada?', 'How long does shipping to Canada take?'],
  ['How do I cancel my yearly subscription?', 'How do I cancel my monthly subscription?'],
  ['How much does the Pro plan cost per month?', 'How much does the Team plan cost per year?'],
  ['Where is my invoice?', 'How do I pay an invoice?'],
  ['Can I cancel my subscription at any time?', 'Can I pause my subscription?'],
  ['What is your refund policy?', 'What is your privacy policy?'],
  ['Who are you?', 'Who is the CEO?'],
];

describe('the lexical match of a question with a pair', () => {
  it('accepts rewordings that keep the words and refuses other questions sharing some', () => {
    for (const [pair, asked] of SAME)
      expect(lexicalScore(asked, [pair]), asked).toBeGreaterThanOrEqual(QA_LEXICAL_MATCH);
    for (const [pair, asked] of DIFFERENT)
      expect(lexicalScore(asked, [pair]), asked).toBeLessThan(QA_LEXICAL_MATCH);
  });

  it('takes the best of the phrasings, and a question of no words matches nothing', () => {
    expect(lexicalScore('I forgot my password', ['How do I reset my password?', 'forgot password'])).toBe(1);
    expect(lexicalScore('?!', ['?!'])).toBe(0);
  });
});

describe('the decision with vectors', () => {
  it('lets close vectors match with fewer shared words, but never with none', () => {
    expect(qaScore(0.8, undefined)).toBe(0.8);
    expect(qaScore(0.5, undefined)).toBeNull();
    expect(qaScore(0.5, QA_VECTOR_MATCH)).toBe(QA_VECTOR_MATCH);
    expect(qaScore(0.5, QA_VECTOR_MATCH - 0.01)).toBeNull();
    expect(qaScore(0, 0.99)).toBeNull();
  });
});
