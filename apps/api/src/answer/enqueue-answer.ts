import type { FastifyInstance } from 'fastify';

export const ANSWER_QUEUE = 'answer-message';
/** NOTIFY channel that wakes answer workers at once (pg-boss 10 only polls). */
export const ANSWER_KICK_CHANNEL = 'cairn_answer_kick';
/** NOTIFY channel carrying `<messageId>:<run>` of an answer to abort, wherever it streams. */
export const ANSWER_STOP_CHANNEL = 'cairn_answer_stop';

export interface AnswerJob {
  messageId: number;
  run: number;
}

/** Queues the answer durably (pg-boss), then wakes a worker so it starts within milliseconds. */
export async function enqueueAnswer(app: FastifyInstance, job: AnswerJob): Promise<void> {
  // No retry: a failed answer is stored as failed with its reason; the user may regenerate it.
  await app.jobs.send(ANSWER_QUEUE, job, { retryLimit: 0, expireInSeconds: 15 * 60 });
  await app.database.notify(ANSWER_KICK_CHANNEL, String(job.messageId));
}

export function requestStop(app: FastifyInstance, messageId: number, run: number): Promise<void> {
  return app.database.notify(ANSWER_STOP_CHANNEL, `${messageId}:${run}`);
}
