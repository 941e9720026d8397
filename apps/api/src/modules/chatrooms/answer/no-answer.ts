/** The languages whose default texts Cairn knows; others get English. */
export type KnownLanguage = 'en' | 'de' | 'fr' | 'es';

/** What the assistant says by default when the knowledge does not cover a question (it never invents instead). */
export const NOT_COVERED_ANSWERS: Record<KnownLanguage, string> = {
  en: "Sorry, I don't have information about that.",
  de: 'Leider habe ich dazu keine Informationen.',
  fr: "Désolé, je n'ai pas d'informations à ce sujet.",
  es: 'Lo siento, no tengo información sobre eso.',
};
export const NOT_COVERED_ANSWER = NOT_COVERED_ANSWERS.en;

/** A whole-word pattern (JavaScript's `\b` ignores letters beyond ASCII: "où", "qué"). */
const words = (list: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${list})(?![\\p{L}\\p{N}])`, 'giu');

/** Short, frequent words that tell the four languages apart even in a one-line question. */
const MARKERS: Record<Exclude<KnownLanguage, 'en'>, RegExp> = {
  de: words(
    'ich|du|sie|wir|ist|sind|der|die|das|und|nicht|ein|eine|wie|was|wann|wo|wer|warum|welche[rsnm]?|habe?n?|gibt|können|kann|mit|für|auf|bei|ihr|euer|hallo|danke',
  ),
  fr: words(
    'je|tu|vous|nous|est|sont|le|la|les|des|une?|et|pas|que|qui|quoi|quand|où|comment|pourquoi|quel(?:le)?s?|avez|êtes|puis|pour|avec|sur|bonjour|merci',
  ),
  es: words(
    'yo|tú|usted|nosotros|es|son|el|los|las|una?|y|no|que|qué|quién|cuándo|dónde|cómo|por|para|con|tienen?|puedo|hola|gracias|está',
  ),
};
const ENGLISH = words(
  'i|you|we|is|are|the|and|not|a|an|what|when|where|who|why|how|which|do|does|can|have|has|for|with|on|hello|hi|thanks',
);

/** The question's language when its small words say so clearly; English otherwise. */
export function languageOf(text: string): KnownLanguage {
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  let best: KnownLanguage = 'en';
  let bestCount = count(ENGLISH);
  for (const language of ['de', 'fr', 'es'] as const) {
    const n = count(MARKERS[language]);
    if (n > bestCount) {
      best = language;
      bestCount = n;
    }
  }
  return best;
}

/** The refusal: the owner's own words when they wrote some, else the default in the question's language. */
export function notCoveredAnswer(ownerMessage: string, question: string): string {
  return ownerMessage.trim() || NOT_COVERED_ANSWERS[languageOf(question)];
}
