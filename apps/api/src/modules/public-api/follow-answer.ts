import type { TMessage, TMessageEvent } from '@cairn/contracts/chat';
import { messages } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { serializeMessage } from '../chatrooms/serialize-chat.ts';

export type AnswerStep = { kind: 'text'; text: string } | { kind: 'done'; message: TMessage };

const FINAL = new Set(['complete', 'stopped', 'failed']);
/** Without an event for this long, the stored answer is read (a NOTIFY lost on the way). */
const QUIET_CHECK_MS = 5000;

/** `next()` after `close()`: the caller stopped listening (the client went away). */
export class FollowerClosedError extends Error {
  constructor() {
    super('The answer is no longer followed.');
  }
}

export interface AnswerFollower {
  /** The next piece of the answer's text, or its final message; rejects once closed. */
  next(): Promise<AnswerStep>;
  /**
   * Hands every step to `onStep` from now on, instead of `next()`: those already received at once,
   * then each inside the realtime listener that brings it. No await lies between an event and its
   * use, so a streamed completion writes its text in the same turn as the chat's sockets do.
   */
  forEach(onStep: (step: AnswerStep) => void): void;
  close(): void;
}

/**
 * Follows one answer through its owner's `message` events, wherever it is answered (this process or
 * another): the text as it streams, in order and without repeats (deltas carry offsets), then the
 * final message. Subscribe before the answer is stored, so that no event can be missed.
 */
export function followAnswer(app: FastifyInstance, ownerId: number, answerUuid: string): AnswerFollower {
  const steps: AnswerStep[] = [];
  let wake: (() => void) | null = null;
  let received = 0;
  let run: number | null = null;
  let done = false;
  let closed = false;
  let sink: ((step: AnswerStep) => void) | null = null;
  let quiet: NodeJS.Timeout | undefined;

  function push(step: AnswerStep) {
    if (done) return;
    if (step.kind === 'done') {
      done = true;
      // Text that did not arrive as deltas (a gap) is in the final message.
      const rest = step.message.message.slice(received);
      if (rest && step.message.run === (run ?? step.message.run)) steps.push({ kind: 'text', text: rest });
    }
    steps.push(step);
    if (sink) drain(sink);
    else wake?.();
  }

  function drain(onStep: (step: AnswerStep) => void) {
    clearTimeout(quiet);
    while (steps.length && !closed) {
      const step = steps.shift()!;
      if (step.kind === 'done') unsubscribe();
      onStep(step);
    }
    if (!done && !closed) {
      quiet = setTimeout(
        () =>
          void readStored()
            .catch(() => {})
            .finally(() => sink && drain(sink)),
        QUIET_CHECK_MS,
      );
    }
  }

  const unsubscribe = app.realtime.subscribe(ownerId, ({ event, data }) => {
    if (event !== 'message') return;
    const e = data as TMessageEvent;
    if (e.kind === 'delta' && e.message_uuid === answerUuid) {
      run ??= e.run;
      if (e.run !== run || e.offset + e.delta.length <= received || e.offset > received) return;
      const text = e.delta.slice(received - e.offset);
      received += text.length;
      push({ kind: 'text', text });
    } else if ((e.kind === 'updated' || e.kind === 'created') && e.message.uuid === answerUuid) {
      if (FINAL.has(e.message.status)) push({ kind: 'done', message: e.message });
    }
  });

  async function readStored() {
    const [row] = await app.db.select().from(messages).where(eq(messages.uuid, answerUuid));
    if (row && FINAL.has(row.status)) push({ kind: 'done', message: serializeMessage(row) });
  }

  return {
    async next() {
      while (!steps.length) {
        if (closed) throw new FollowerClosedError();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(
            () =>
              void readStored()
                .catch(() => {})
                .finally(resolve),
            QUIET_CHECK_MS,
          );
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
      const step = steps.shift()!;
      if (step.kind === 'done') unsubscribe();
      return step;
    },
    forEach(onStep) {
      sink = onStep;
      drain(onStep);
    },
    close() {
      done = true;
      closed = true;
      clearTimeout(quiet);
      unsubscribe();
      wake?.();
    },
  };
}
