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

/**
 * Short, frequent words that tell the four languages apart even in a one-line question. Words two
 * languages share ("la", "de", "en", "y") count for both; the letters and marks below break the tie.
 */
const MARKERS: Record<Exclude<KnownLanguage, 'en'>, RegExp> = {
  de: words(
    'ich|du|sie|wir|ist|sind|der|die|das|dem|den|des|und|nicht|kein|keine|ein|eine|mein|meine|wie|was|wann|wo|wer|warum|welche[rsnm]?|habe?n?|habt|gibt|können|kann|mit|für|auf|bei|von|vom|zum|zur|am|im|ohne|nach|aus|ihr|euer|hallo|danke',
  ),
  fr: words(
    'je|tu|vous|nous|il|elle|est|sont|le|la|les|des|du|au|aux|de|en|une?|et|y|pas|ne|que|qui|quoi|quand|où|comment|pourquoi|quel(?:le)?s?|mon|ma|mes|ce|cette|avez|êtes|puis|pour|avec|sans|sur|chez|bonjour|merci',
  ),
  es: words(
    'yo|tú|usted|ustedes|nosotros|es|son|el|la|los|las|lo|de|del|al|en|una?|y|no|mi|mis|su|sus|que|qué|quién|cuál(?:es)?|cuándo|cuánt[oa]s?|dónde|cómo|hay|por|para|con|sin|nunca|tienen?|puedo|hola|gracias|está',
  ),
};
const ENGLISH = words(
  'i|you|we|it|is|are|the|of|to|in|at|my|your|this|that|and|not|an|any|what|when|where|who|why|how|which|do|does|can|have|has|for|with|from|about|on|please|hello|hi|thanks',
);
/** Letters and marks each language writes and the other three (nearly) never do; French elisions. */
const LETTERS: Record<Exclude<KnownLanguage, 'en'>, RegExp> = {
  de: /[äöüß]/giu,
  fr: /[àâçèêëîïôùûœ]|(?<!\p{L})(?:[cdjlmnst]|qu)['’](?=\p{L})/giu,
  es: /[¿¡ñáíóú]/giu,
};

/** The question's language when its small words say so clearly; English otherwise. */
export function languageOf(text: string): KnownLanguage {
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  let best: KnownLanguage = 'en';
  let bestCount = count(ENGLISH);
  for (const language of ['de', 'fr', 'es'] as const) {
    const n = count(MARKERS[language]) + count(LETTERS[language]);
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
