import type { TQaPair } from '@cairn/contracts/knowledge';

/**
 * What a Q&A pair is indexed as: one markdown document whose heading is the question, with the other
 * phrasings listed under it and then the answer, so search finds the pair by any of its phrasings
 * and a citation shows the question as its heading.
 */
export function qaDocument(pair: TQaPair): string {
  const phrasings = pair.alternatives.map((alternative) => `- ${alternative}`).join('\n');
  return [`## ${pair.question}`, phrasings, pair.answer].filter(Boolean).join('\n\n');
}
