import type { TMessage, TMessageEvent } from '@cairn/contracts/chat';
import { isFinalStatus } from '@cairn/contracts/message-rules';
import { messages } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeMessage } from '../chatrooms/serialize-chat.ts';

/**
 * `restarted`: the answer was started again (its process died, decision 052) and the new run's text
 * departs from the text already handed on, which cannot be taken back; the final message still follows.
 * `interrupted`: this process is stopping before the answer ended; nothing follows (decision 061).
 */
export type AnswerStep =
  | { kind: 'text'; text: string }
  | { kind: 'restarted' }
  | { kind: 'interrupted' }
  | { kind: 'done'; message: TMessage };

const isLast = (step: AnswerStep) => step.kind === 'done' || step.kind === 'interrupted';

/**
 * The followers open in each app, keyed by its realtime hub (the same object in every plugin
 * context): a stopping process waits for them, then interrupts the rest.
 */
const openFollowers = new WeakMap<object, Set<{ interrupt(): void; ended: Promise<void> }>>();

const followersOf = (app: Ctx) => {
  let set = openFollowers.get(app.realtime);
  if (!set) {
    set = new Set();
    openFollowers.set(app.realtime, set);
  }
  return set;
};

/**
 * Part of a drain: waits up to `timeoutMs` for the answers followed here (public-API requests under
 * way, whichever process writes them) to end, then ends those left with `interrupted`, so their
 * requests end and the process can close.
 */
export async function settleFollowers(app: Ctx, timeoutMs: number): Promise<void> {
  const followers = [...followersOf(app)];
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(followers.map((f) => f.ended)),
    new Promise((r) => {
      timer = setTimeout(r, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  for (const f of followersOf(app)) f.interrupt();
}

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
 *
 * The text handed on is always the start of the stored answer. An answer started again as a new run
 * (its process died) is followed in its new run: what it writes again is not repeated, what follows
 * is handed on, and text of the old run it does not write again ends the text with `restarted`.
 */
export function followAnswer(app: Ctx, ownerId: number, answerUuid: string): AnswerFollower {
  const steps: AnswerStep[] = [];
  let wake: (() => void) | null = null;
  /** The text of the run followed, as received in order; `handed` is what was handed on. */
  let text = '';
  let handed = '';
  let diverged = false;
  let run: number | null = null;
  let done = false;
  let closed = false;
  let sink: ((step: AnswerStep) => void) | null = null;
  let quiet: NodeJS.Timeout | undefined;

  /** Hands on what `text` adds to what was handed on, or `restarted` once it departs from it. */
  function handOn() {
    if (diverged) return;
    if (text.startsWith(handed)) {
      if (text.length > handed.length) steps.push({ kind: 'text', text: text.slice(handed.length) });
      handed = text;
    } else if (!handed.startsWith(text)) {
      diverged = true;
      steps.push({ kind: 'restarted' });
    }
  }

  /** Hands the steps gathered to whoever reads them. */
  function deliver() {
    if (sink) drain(sink);
    else wake?.();
  }

  function finish(message: TMessage) {
    if (done) return;
    done = true;
    // Text that did not arrive as deltas (a gap, or a new run's) is in the final message.
    text = message.message;
    handOn();
    steps.push({ kind: 'done', message });
    deliver();
  }

  function drain(onStep: (step: AnswerStep) => void) {
    clearTimeout(quiet);
    while (steps.length && !closed) {
      const step = steps.shift()!;
      if (isLast(step)) unsubscribe();
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

  const unsubscribeEvents = app.realtime.subscribeTo(ownerId, answerUuid, ({ event, data }) => {
    if (event !== 'message') return;
    const e = data as TMessageEvent;
    if (done) return;
    if (e.kind === 'delta' && e.message_uuid === answerUuid) {
      if (run === null || e.run > run) {
        run = e.run;
        text = '';
      }
      if (e.run !== run || e.offset + e.delta.length <= text.length || e.offset > text.length) return;
      text += e.delta.slice(text.length - e.offset);
      handOn();
      deliver();
    } else if ((e.kind === 'updated' || e.kind === 'created') && e.message.uuid === answerUuid) {
      if (isFinalStatus(e.message.status)) finish(e.message);
    }
  });

  let ended!: () => void;
  const entry = {
    ended: new Promise<void>((r) => {
      ended = r;
    }),
    interrupt() {
      if (done) return;
      done = true;
      steps.push({ kind: 'interrupted' });
      deliver();
    },
  };
  followersOf(app).add(entry);
  function unsubscribe() {
    unsubscribeEvents();
    followersOf(app).delete(entry);
    ended();
  }

  async function readStored() {
    const [row] = await app.db.select().from(messages).where(eq(messages.uuid, answerUuid));
    if (row && isFinalStatus(row.status)) finish(serializeMessage(row));
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
      if (isLast(step)) unsubscribe();
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
