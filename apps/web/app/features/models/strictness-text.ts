import type { TStrictness } from '@cairn/contracts/applications';

/** How each strictness level is described in the settings form (no zod: the page loads it at once). */
export const STRICTNESS_TEXT: Record<TStrictness, { label: string; description: string }> = {
  strict: {
    label: 'Only the knowledge',
    description: 'Answers only from the knowledge, and says so when it does not hold the answer.',
  },
  balanced: {
    label: 'Knowledge first',
    description: 'Prefers the knowledge; may fill gaps with general knowledge and says when it does.',
  },
  relaxed: {
    label: 'Knowledge as context',
    description: 'Uses the knowledge as context and answers freely.',
  },
};
