import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type PgBoss from 'pg-boss';
import { type AbortReason, type AnswerDeps, answerMessage } from './answer-message.ts';
import { ANSWER_KICK_CHANNEL, ANSWER_QUEUE, ANSWER_STOP_CHANNEL, type AnswerJob } from './enqueue-answer.ts';

export interface AnswerOptions {
  runWorkers: boolean;
  deps: AnswerDeps;
  /** Answers streamed at once by this process. */
  concurrency?: number;
  /** Abort an answer when its model sends nothing for this long. */
  idleTimeoutMs?: number;
  /** Fallback poll for jobs whose wake-up was missed (another process down, a lost NOTIFY). */
  pollIntervalMs?: number;
}

/**
 * The answer worker. Jobs live in pg-boss (durable, exactly one taker through SKIP LOCKED); a
 * NOTIFY wakes the workers the moment a job is queued, so the first token is not held back by
 * pg-boss's polling interval. Stops arrive as NOTIFYs too, whichever process streams the answer.
 */
export default fp(async function answerPlugin(app: FastifyInstance, opts: AnswerOptions) {
  if (!opts.runWorkers) return;
  const concurrency = opts.concurrency ?? 64;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 90_000;
  const active = new Map<string, AbortController>();
  let running = 0;
  let draining = false;
  let again = false;
  let closing = false;

  await app.jobs.boss.createQueue(ANSWER_QUEUE);

  function start(job: PgBoss.Job<AnswerJob>) {
    running++;
    const key = `${job.data.messageId}:${job.data.run}`;
    const controller = new AbortController();
    active.set(key, controller);
    answerMessage({ app, deps: opts.deps, controller, idleTimeoutMs }, job.data)
      .then(
        () => app.jobs.boss.complete(ANSWER_QUEUE, job.id),
        (err: unknown) => {
          app.log.error({ err, job: job.data }, 'answer job failed');
          return app.jobs.boss.fail(ANSWER_QUEUE, job.id, { message: String(err) });
        },
      )
      .catch((err: unknown) => app.log.error({ err }, 'could not settle answer job'))
      .finally(() => {
        active.delete(key);
        running--;
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
        while (running < concurrency && !closing) {
          const jobs = await app.jobs.boss.fetch<AnswerJob>(ANSWER_QUEUE, {
            batchSize: concurrency - running,
          });
          if (!jobs.length) break;
          for (const job of jobs) start(job);
        }
      } while (again && !closing);
    } catch (err) {
      app.log.error({ err }, 'fetching answer jobs failed');
    } finally {
      draining = false;
    }
  }

  const unlistenKick = await app.database.listen(ANSWER_KICK_CHANNEL, () => void drain());
  const unlistenStop = await app.database.listen(ANSWER_STOP_CHANNEL, (key) => {
    active.get(key)?.abort('stop' satisfies AbortReason);
  });
  const poll = setInterval(() => void drain(), opts.pollIntervalMs ?? 2000);
  poll.unref();
  app.addHook('onReady', () => void drain());

  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(poll);
    await unlistenKick();
    await unlistenStop();
    // Answers in flight end as failed with a reason, never as a conversation that hangs.
    for (const controller of active.values()) controller.abort('shutdown' satisfies AbortReason);
    for (let i = 0; i < 100 && running > 0; i++) await new Promise((r) => setTimeout(r, 20));
  });
});
