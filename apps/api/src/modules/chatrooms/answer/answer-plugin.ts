import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { publishMessageUpdated } from '../publish-chat-event.ts';
import { type AbortReason, type AnswerDeps, answerMessage } from './answer-message.ts';
import {
  ANSWER_HEARTBEAT_MS,
  ANSWER_KICK_CHANNEL,
  ANSWER_STOP_CHANNEL,
  type AnswerRunKey,
  type AnswerTarget,
  handBackAnswers,
  renewLeases,
  resumeAbandonedAnswers,
  takePendingAnswers,
  wakeAnswerWorkers,
} from './answer-queue.ts';
import { countUncountedAnswers } from './count-uncounted.ts';

export interface AnswerOptions {
  runWorkers: boolean;
  deps: AnswerDeps;
  /** Answers streamed at once by this process. */
  concurrency?: number;
  /** Abort an answer when its model sends nothing for this long. */
  idleTimeoutMs?: number;
  /** Fallback poll for pending answers whose wake-up was missed (another process down, a lost NOTIFY). */
  pollIntervalMs?: number;
  /** How often leases are renewed and abandoned answers (their process died) are started again. */
  leaseCheckMs?: number;
}

/** One answer slot of this process: answer the taken message in it, or give it back. */
export interface AnswerSlot {
  run(target: AnswerTarget): void;
  release(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    answers: {
      /** A free answer slot of this process, or null (all busy, stopping, or not an answer worker). */
      reserve(): AnswerSlot | null;
      /**
       * Graceful drain: takes no new answer; lets the ones streaming finish for up to `timeoutMs`,
       * then hands the rest back to the queue (new runs, for any process). Says what became of them.
       */
      drain(timeoutMs: number): Promise<{ finished: number; handedBack: number }>;
    };
  }
}

/**
 * The answer workers (see answer-queue.ts). A process that stores a question answers it in one of
 * its own slots when it has one; pending answers (from API-only processes, or beyond this process's
 * concurrency) are taken when a NOTIFY wakes the workers or at the fallback poll. Stops arrive as
 * NOTIFYs too, whichever process streams the answer.
 */
export default fp(async function answerPlugin(app: FastifyInstance, opts: AnswerOptions) {
  const concurrency = opts.concurrency ?? 64;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 90_000;
  const active = new Map<string, Running>();
  /** Slots in use: reserved or answering. */
  let used = 0;
  let taking = false;
  let again = false;
  /**
   * Pending answers may be waiting: a wake-up came, or the last take filled every free slot. An
   * answer ending takes more only then; otherwise the statement would find none (one per answer,
   * on PGlite's one connection, decision 084). The fallback poll takes whatever this misses.
   */
  let maybePending = true;
  /** Wake-ups so far: one that comes while a take is under way may name an answer it missed. */
  let wakeUps = 0;
  /** Set once the process stops: no answer is taken any more. */
  let closing = false;
  let drained: Promise<{ finished: number; handedBack: number }> | undefined;

  app.decorate('answers', {
    reserve(): AnswerSlot | null {
      if (!opts.runWorkers || closing || used >= concurrency) return null;
      used++;
      let settled = false;
      return {
        run(target) {
          if (settled) return;
          settled = true;
          start(target);
        },
        release() {
          if (settled) return;
          settled = true;
          used--;
        },
      };
    },
    drain(timeoutMs: number) {
      closing = true;
      // A process that runs no answer workers has nothing under way.
      drained ??= opts.runWorkers ? drainAnswers(timeoutMs) : Promise.resolve({ finished: 0, handedBack: 0 });
      return drained;
    },
  });
  if (!opts.runWorkers) return;

  /** Answers a taken message in a slot already counted in `used`. */
  function start(target: AnswerTarget) {
    const key = `${target.answer.id}:${target.answer.run}`;
    const controller = new AbortController();
    const done = answerMessage({ app, deps: opts.deps, controller, idleTimeoutMs }, target)
      // The lease is no longer renewed, so the answer is started again elsewhere: it does not hang.
      .catch((err: unknown) => app.log.error({ err, messageId: target.answer.id }, 'answer failed'))
      .finally(() => {
        active.delete(key);
        used--;
        if (maybePending) void take();
      });
    active.set(key, { controller, run: { id: target.answer.id, run: target.answer.run }, done });
  }

  /** Takes pending answers into the free slots. */
  async function take() {
    if (closing) return;
    if (taking) {
      again = true;
      return;
    }
    taking = true;
    try {
      do {
        again = false;
        while (!closing && used < concurrency) {
          const free = concurrency - used;
          used += free;
          let taken: AnswerTarget[] = [];
          const wakeUpsBefore = wakeUps;
          try {
            taken = await takePendingAnswers(app, free);
          } finally {
            used -= free - taken.length;
          }
          for (const target of taken) start(target);
          // Fewer than asked for: none is left pending (until the next wake-up says otherwise).
          maybePending = taken.length === free || wakeUps !== wakeUpsBefore;
          if (taken.length < free) break;
        }
      } while (again && !closing);
    } catch (err) {
      app.log.error({ err }, 'taking pending answers failed');
    } finally {
      taking = false;
    }
  }

  /** The heartbeat: renew this process's leases, start again the answers of processes that died. */
  async function checkLeases(options: { all?: boolean } = {}) {
    try {
      const mine = [...active.values()];
      const held = new Set(
        (
          await renewLeases(
            app,
            mine.map((a) => a.run),
          )
        ).map((r) => `${r.id}:${r.run}`),
      );
      // A run whose lease ran out meanwhile (a stall longer than the lease) now belongs to the queue.
      for (const a of mine) {
        const key = `${a.run.id}:${a.run.run}`;
        if (!held.has(key) && active.get(key) === a) a.controller.abort('handoff' satisfies AbortReason);
      }
      const { failed, resumed } = await resumeAbandonedAnswers(app, options);
      for (const { application, chatroom, answer } of resumed) {
        app.log.warn(
          { messageId: answer.id, run: answer.run },
          'answer abandoned by its process; started again',
        );
        await publishMessageUpdated(app, application.ownerId, { application, chatroom }, answer);
      }
      for (const { application, chatroom, answer } of failed) {
        app.log.warn({ messageId: answer.id }, 'answer abandoned too many times; ended as interrupted');
        await publishMessageUpdated(app, application.ownerId, { application, chatroom }, answer);
      }
      if (resumed.length) wakeUp();
    } catch (err) {
      app.log.error({ err }, 'checking answer leases failed');
    }
  }

  async function drainAnswers(timeoutMs: number) {
    closing = true;
    clearInterval(poll);
    const streaming = active.size;
    const deadline = Date.now() + timeoutMs;
    // Leases are still renewed (the heartbeat runs on) while the answers finish.
    while (active.size && Date.now() < deadline) {
      await Promise.race([
        Promise.all([...active.values()].map((a) => a.done)),
        new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()))),
      ]);
    }
    let handedBack = 0;
    // Again while a slot reserved before the drain started its answer meanwhile.
    while (active.size) handedBack += await handBack([...active.values()]);
    clearInterval(heartbeat);
    if (streaming) app.log.info({ finished: streaming - handedBack, handedBack }, 'answers drained');
    return { finished: streaming - handedBack, handedBack };
  }

  /** Stops these runs and puts their answers back in the queue, for any process to take. */
  async function handBack(left: Running[]): Promise<number> {
    for (const a of left) a.controller.abort('handoff' satisfies AbortReason);
    await Promise.all(left.map((a) => a.done));
    try {
      const rows = await handBackAnswers(
        app,
        left.map((a) => a.run),
      );
      for (const { application, chatroom, answer } of rows) {
        await publishMessageUpdated(app, application.ownerId, { application, chatroom }, answer);
      }
      if (rows.length) await wakeAnswerWorkers(app);
      return rows.length;
    } catch (err) {
      // Their leases run out and any process (this one after a restart) starts them again.
      app.log.error({ err }, 'handing answers back failed');
      return 0;
    }
  }

  function wakeUp() {
    wakeUps++;
    maybePending = true;
    void take();
  }
  const unlistenKick = await app.database.listen(ANSWER_KICK_CHANNEL, wakeUp);
  const unlistenStop = await app.database.listen(ANSWER_STOP_CHANNEL, (key) => {
    active.get(key)?.controller.abort('stop' satisfies AbortReason);
  });
  const poll = setInterval(() => void take(), opts.pollIntervalMs ?? 2000);
  poll.unref();
  const heartbeat = setInterval(() => void checkLeases(), opts.leaseCheckMs ?? ANSWER_HEARTBEAT_MS);
  heartbeat.unref();
  let counting: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    // With PGlite the data directory is locked to this process: an answer still streaming was
    // left by a process that died, and is started again at once rather than after its lease.
    await checkLeases({ all: app.database.kind === 'pglite' });
    void take();
    // Off the start: an owner's inbox may wait a moment, answers do not.
    counting = countUncountedAnswers(app).then(
      (counted) => {
        if (counted) app.log.info({ counted }, 'uncovered answers left uncounted were counted');
      },
      (err: unknown) => app.log.error({ err }, 'counting uncounted answers failed'),
    );
  });

  app.addHook('preClose', async () => {
    // Without a drain first (tests, or a second signal), what is streaming is handed back at once.
    await app.answers.drain(0);
    await counting;
    await unlistenKick();
    await unlistenStop();
  });
});

interface Running {
  controller: AbortController;
  run: AnswerRunKey;
  /** Settles when the run has ended, whatever way. */
  done: Promise<void>;
}
