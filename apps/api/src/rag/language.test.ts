import { describe, expect, it } from 'vitest';
import { detectLanguage } from './language.ts';

describe('detectLanguage', () => {
  it('finds English prose by its function words, and other languages through tinyld', async () => {
    expect(
      await detectLanguage(
        'The horses are running across the meadow. A horse eats a lot of hay every day and drinks from the stream.',
      ),
    ).toBe('en');
    expect(
      await detectLanguage(
        'Les chevaux galopent dans la prairie. Un cheval mange beaucoup de foin chaque jour et boit l’eau de la rivière.',
      ),
    ).toBe('fr');
    expect(
      await detectLanguage(
        'Het onderzoek toont aan dat patiënten met diabetes een hoger risico hebben op hart- en vaatziekten. We zien dat een vroege behandeling het risico vermindert, of de patiënt nu jong of oud is.',
      ),
    ).toBe('nl');
  });

  it('leaves a German paragraph quoting an English title to tinyld', async () => {
    expect(
      await detectLanguage(
        'Die Studie (The effect of insulin on the risk of heart disease) zeigt, dass Patienten mit Diabetes ein höheres Risiko haben. Eine frühe Therapie senkt das Risiko deutlich, wie die Ergebnisse belegen.',
      ),
    ).toBe('de');
  });

  it('does not guess from too few letters', async () => {
    expect(await detectLanguage('The cat and the dog.')).toBeUndefined();
  });
});
