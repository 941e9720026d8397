import type { TStrictness } from '@cairn/contracts/applications';
import type { ChatTurn } from '../../../models/types.ts';
import type { Passage } from '../../../rag/types.ts';

const RULES: Record<TStrictness, string> = {
  strict:
    'Answer only from the passages. If they do not contain the answer, say that the knowledge does not ' +
    'cover this question. Never make up facts.',
  balanced:
    'Prefer the passages. If they do not contain the answer, say so first; you may then add what you ' +
    'know in general, clearly marked as not coming from the knowledge.',
  relaxed: 'Use the passages as context; you may also answer from general knowledge.',
};

function describe(p: Passage, n: number): string {
  const where = [p.item_title, p.heading, p.page !== null ? `page ${p.page}` : null]
    .filter(Boolean)
    .join(' — ');
  return `[${n}] ${where}\n${p.content.trim()}`;
}

export interface PromptInput {
  applicationName: string;
  instructions: string;
  strictness: TStrictness;
  passages: Passage[];
  history: ChatTurn[];
  question: string;
  /** What to say when the passages do not hold the answer (the owner's words, or the default). */
  notCovered: string;
}

/** The system prompt (rules, instructions, numbered passages) and the turns to send the model. */
export function buildPrompt(input: PromptInput): { system: string; messages: ChatTurn[] } {
  const lines = [
    `You are the assistant of "${input.applicationName}". You answer questions about its knowledge.`,
    RULES[input.strictness],
    `When the passages do not hold the answer, say: "${input.notCovered}"`,
    'Cite the passages you use inline with their numbers in square brackets, like [1] or [2][3], right ' +
      'after the statement they support. Cite only passages you actually use. Answer in the language of the question.',
  ];
  if (input.instructions.trim()) lines.push(`Instructions from the owner:\n${input.instructions.trim()}`);
  lines.push(
    input.passages.length
      ? `Passages from the knowledge:\n\n${input.passages.map((p, i) => describe(p, i + 1)).join('\n\n')}`
      : 'No passage of the knowledge matches this question.',
  );
  return {
    system: lines.join('\n\n'),
    messages: [...input.history, { role: 'user', content: input.question }],
  };
}
