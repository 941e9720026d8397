import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { publishMessageUpdated } from '../modules/chatrooms/publish-chat-event.ts';
import { emitMessageCreated } from '../modules/webhooks/product-events.ts';
import { type AbortReason, type AnswerDeps, answerMessage } from './answer-message.ts';
import {
  ANSWER_KICK_CHANNEL,
  ANSWER_LEASE_SECONDS,
  ANSWER_STOP_CHANNEL,
  type AnswerTarget,
  failAbandonedAnswers,
  renewLeases,
  takePendingAnswers,
} from './answer-queue.ts';

export interface AnswerOptions {
  runWorkers: boolean;
  deps: AnswerDeps;
  /** Answers streamed at once by this process. */
  concurrency?: number;
  /** Abort an answer when its model sends nothing for this long. */
  idleTimeoutMs?: number;
  /** Fallback poll for pending answers whose wake-up was missed (another process down, a lost NOTIFY). */
  pollIntervalMs?: number;
  /** How often leases are renewed and abandoned answers (their process died) are ended. */
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
  const active = new Map<string, { controller: AbortController; messageId: number }>();
  /** Slots in use: reserved or answering. */
  let used = 0;
  let draining = false;
  let again = false;
  let closing = false;

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
  });
  if (!opts.runWorkers) return;

  /** Answers a taken message in a slot already counted in `used`. */
  function start(target: AnswerTarget) {
    const key = `${target.answer.id}:${target.answer.run}`;
    const controller = new AbortController();
    active.set(key, { controller, messageId: target.answer.id });
    if (closing) controller.abort('shutdown' satisfies AbortReason);
    answerMessage({ app, deps: opts.deps, controller, idleTimeoutMs }, target)
      // The lease is no longer renewed, so the answer ends as interrupted: it does not hang.
      .catch((err: unknown) => app.log.error({ err, messageId: target.answer.id }, 'answer failed'))
      .finally(() => {
        active.delete(key);
        used--;
        void drain();
      });
  }

  async function drain() {
    if (closing) return;
    if (draining) {
      again = true;
      return;
    }
    draining = true;
    try {
      do {
        again = false;
        while (!closing && used < concurrency) {
          const free = concurrency - used;
          used += free;
          let taken: AnswerTarget[] = [];
          try {
            taken = await takePendingAnswers(app, free);
          } finally {
            used -= free - taken.length;
          }
          for (const target of taken) start(target);
          if (taken.length < free) break;
        }
      } while (again && !closing);
    } catch (err) {
      app.log.error({ err }, 'taking pending answers failed');
    } finally {
      draining = false;
    }
  }

  async function checkLeases() {
    try {
      await renewLeases(
        app,
        [...active.values()].map((a) => a.messageId),
      );
      for (const { application, chatroom, answer } of await failAbandonedAnswers(app)) {
        app.log.warn({ messageId: answer.id }, 'answer abandoned by its process; ended as interrupted');
        await publishMessageUpdated(app, application.ownerId, { application, chatroom }, answer);
        await emitMessageCreated(app, { application, chatroom }, answer);
      }
    } catch (err) {
      app.log.error({ err }, 'checking answer leases failed');
    }
  }

  const unlistenKick = await app.database.listen(ANSWER_KICK_CHANNEL, () => void drain());
  const unlistenStop = await app.database.listen(ANSWER_STOP_CHANNEL, (key) => {
    active.get(key)?.controller.abort('stop' satisfies AbortReason);
  });
  const poll = setInterval(() => void drain(), opts.pollIntervalMs ?? 2000);
  poll.unref();
  const leases = setInterval(
    () => void checkLeases(),
    opts.leaseCheckMs ?? (ANSWER_LEASE_SECONDS * 1000) / 3,
  );
  leases.unref();
  app.addHook('onReady', async () => {
    await checkLeases();
    void drain();
  });

  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(poll);
    clearInterval(leases);
    await unlistenKick();
    await unlistenStop();
    // Answers in flight end as failed with a reason, never as a conversation that hangs.
    for (const { controller } of active.values()) controller.abort('shutdown' satisfies AbortReason);
    for (let i = 0; i < 100 && used > 0; i++) await new Promise((r) => setTimeout(r, 20));
  });
});
