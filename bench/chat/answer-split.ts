import type { ServerTimings } from './server-handle.ts';
import { percentile } from './setup.ts';

/** One answer as the client saw it, with what names it on the server's clocks. */
export interface AskedAnswer {
  /** The request's bench id (`x-bench-id`: the server clocks its arrival by it). */
  id: string;
  /** The answer message's uuid (its steps, `answer-phases.ts`, are keyed by it). */
  answer: string;
  /** This client's `performance.now()` when the request was sent. */
  sent: number;
  /** The server's `performance.now()` when the first text went out (socket frame or SSE write). */
  written: number | undefined;
  /** This client's `performance.now()` when the first text arrived. */
  received: number | undefined;
}

/**
 * Where each answer's wait went, per step, on one epoch clock (each process's `timeOrigin` +
 * `performance.now()`): the request queueing before the server reads it, the server's steps
 * (`answer-phases.ts`), and the first text's way back. p50 of each step (p50s do not add up to the
 * p50 of the whole).
 */
export function answerSplit(timings: ServerTimings, answers: AskedAnswer[]): string {
  const steps: Array<[string, number[]]> = [
    'queued before read',
    'read → stored',
    'stored → started',
    'started → searched',
    'searched → model called',
    "model called → model's first text",
    'searched → first text, no model called (built-in answerer, refusal)',
    'first text → written',
    'written → received',
  ].map((label) => [label, []]);
  const add = (i: number, from?: number, to?: number) => {
    if (from !== undefined && to !== undefined) steps[i]![1].push(to - from);
  };
  const server = (t?: number) => (t === undefined ? undefined : timings.origin + t);
  const client = (t?: number) => (t === undefined ? undefined : performance.timeOrigin + t);
  for (const { id, answer, sent, written, received } of answers) {
    const marks = timings.phases[answer] ?? {};
    add(0, client(sent), server(timings.arrival[id]));
    add(1, server(timings.arrival[id]), server(marks.stored));
    add(2, server(marks.stored), server(marks.started));
    add(3, server(marks.started), server(marks.searched));
    add(4, server(marks.searched), server(marks['model-called']));
    add(5, server(marks['model-called']), server(marks['first-text']));
    if (marks['model-called'] === undefined) add(6, server(marks.searched), server(marks['first-text']));
    add(7, server(marks['first-text']), server(written));
    add(8, server(written), client(received));
  }
  return steps
    .filter(([, values]) => values.length)
    .map(
      ([label, values]) =>
        `${label} ${percentile(
          [...values].sort((a, b) => a - b),
          50,
        ).toFixed(1)}`,
    )
    .join(' | ');
}
