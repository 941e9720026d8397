import { channel } from 'node:diagnostics_channel';

/**
 * The steps of an answer on its way to its first delta, published on a diagnostics channel so that
 * the chat benchmarks can say where a person's wait goes (issue 25): the question and its answer
 * stored, the answer started, the knowledge searched and judged, the model called, the model's (or
 * the built-in answerer's) first text, and that text published to the answer's listeners. Free when
 * nobody subscribes (no subscriber in the product).
 */
export type AnswerPhase = 'stored' | 'started' | 'searched' | 'model-called' | 'first-text' | 'published';

export interface AnswerPhaseMark {
  /** The answer message's uuid. */
  answer: string;
  phase: AnswerPhase;
  /** `performance.now()` of this process. */
  at: number;
}

export const ANSWER_PHASES_CHANNEL = 'cairn:answer-phase';
const phases = channel(ANSWER_PHASES_CHANNEL);

export function markAnswerPhase(answer: string, phase: AnswerPhase): void {
  if (phases.hasSubscribers)
    phases.publish({ answer, phase, at: performance.now() } satisfies AnswerPhaseMark);
}
