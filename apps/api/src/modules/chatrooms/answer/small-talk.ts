import { type KnownLanguage, languageOf } from './no-answer.ts';

export type SmallTalk = 'greeting' | 'thanks' | 'identity' | 'farewell';

const FILLER = `(?: (?:there|all|everyone|team|bot|assistant|zusammen|à tous|a todos|again))?`;
const PATTERNS: Array<[SmallTalk, RegExp]> = [
  [
    'greeting',
    new RegExp(
      `^(?:hi|hey|hello|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening|day)|hallo|servus|moin|guten (?:morgen|tag|abend)|grüß gott|bonjour|bonsoir|salut|coucou|hola|buenos días|buenas(?: tardes| noches)?)${FILLER}$`,
      'iu',
    ),
  ],
  [
    'thanks',
    /^(?:(?:thanks?|thank you|thx|ty|cheers|danke|vielen dank|danke schön|merci|merci beaucoup|gracias|muchas gracias)(?: (?:a lot|so much|very much|again|for (?:the|your) help|sehr|beaucoup|mil))?|(?:ok|okay|great|perfect|super|genial|parfait|perfecto),? (?:thanks?|thank you|danke|merci|gracias))$/iu,
  ],
  [
    'identity',
    /^(?:who are you|what are you|what can you do|are you (?:a bot|a robot|human|an ai)|wer bist du|was bist du|was kannst du|qui es-tu|qui êtes-vous|tu es qui|que peux-tu faire|quién eres|qué eres|qué puedes hacer)$/iu,
  ],
  [
    'farewell',
    /^(?:bye|goodbye|good bye|see you|ciao|tschüss|auf wiedersehen|au revoir|adiós|adios|hasta luego)$/iu,
  ],
];

/** Whether a message is only a greeting, thanks, a goodbye or "who are you?" (en, de, fr, es). */
export function smallTalkOf(message: string): SmallTalk | null {
  const text = message
    .trim()
    .replace(/[\s!?.,;:¡¿…)(:;-]+$/u, '')
    .replace(/^[¡¿\s]+/u, '')
    .replace(/\s+/g, ' ');
  if (!text || text.length > 60) return null;
  for (const [kind, pattern] of PATTERNS) if (pattern.test(text)) return kind;
  return null;
}

const REPLIES: Record<KnownLanguage, Record<Exclude<SmallTalk, 'greeting'>, string>> = {
  en: {
    thanks: "You're welcome! Anything else I can help with?",
    identity: "I'm the assistant of {name}: I answer questions from its knowledge and show my sources.",
    farewell: 'Goodbye!',
  },
  de: {
    thanks: 'Gern geschehen! Kann ich sonst noch helfen?',
    identity:
      'Ich bin der Assistent von {name}: Ich beantworte Fragen aus seinem Wissen und nenne meine Quellen.',
    farewell: 'Auf Wiedersehen!',
  },
  fr: {
    thanks: 'Avec plaisir ! Puis-je vous aider pour autre chose ?',
    identity:
      "Je suis l'assistant de {name} : je réponds aux questions à partir de ses connaissances et je cite mes sources.",
    farewell: 'Au revoir !',
  },
  es: {
    thanks: '¡De nada! ¿Puedo ayudarte en algo más?',
    identity:
      'Soy el asistente de {name}: respondo preguntas a partir de su conocimiento y muestro mis fuentes.',
    farewell: '¡Adiós!',
  },
};

/** A short friendly reply to small talk; a greeting is answered with the application's greeting. */
export function smallTalkReply(
  kind: SmallTalk,
  message: string,
  app: { name: string; greeting: string },
): string {
  if (kind === 'greeting') return app.greeting;
  return REPLIES[languageOf(message)][kind].replace('{name}', app.name);
}
