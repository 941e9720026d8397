import type { TMessage } from '@cairn/contracts/chat';
import { chatrooms, integrationThreads, messages } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import { postMessage } from '../chatrooms/post-message.ts';
import { serializeMessage } from '../chatrooms/serialize-chat.ts';
import { type AnswerFollower, followAnswer } from '../public-api/follow-answer.ts';
import type { IntegrationRow } from './find-integration.ts';
import type { ReplyJob } from './reply-job.ts';

/** An answer taking longer than this is given up on (its lease would have ended it long before). */
const ANSWER_TIMEOUT_MS = 5 * 60_000;
const FINAL = new Set(['complete', 'stopped', 'failed']);

async function finalMessage(follower: AnswerFollower): Promise<TMessage> {
  const timer = setTimeout(() => follower.close(), ANSWER_TIMEOUT_MS);
  try {
    for (;;) {
      const step = await follower.next();
      if (step.kind === 'done') return step.message;
    }
  } finally {
    clearTimeout(timer);
  }
}

const senderOf = (job: ReplyJob) =>
  job.target.kind === 'slack'
    ? `slack_${job.target.user}`
    : `telegram_${job.target.userId ?? job.target.chatId}`;

const metadataOf = (job: ReplyJob): Record<string, unknown> =>
  job.target.kind === 'slack'
    ? {
        source: 'slack',
        slack: { channel: job.target.channel, thread_ts: job.target.threadTs, user: job.target.user },
      }
    : { source: 'telegram', telegram: { chat_id: job.target.chatId, message_id: job.target.messageId } };

/**
 * Asks the application the job's question in the conversation of its Slack thread or Telegram chat
 * (a chatroom with that source, created on the first message), through the same `postMessage` and
 * answer pipeline as every channel, and waits for the finished answer. Null when nobody answers: a
 * person took the chatroom over.
 */
export async function askApplication(
  app: FastifyInstance,
  integration: IntegrationRow,
  application: ApplicationRow,
  job: ReplyJob,
): Promise<TMessage | null> {
  // A retried job: the question is stored already; follow (or read) the answer it started.
  const [started] = await app.db.select().from(messages).where(eq(messages.uuid, job.answerUuid));
  if (started) {
    if (FINAL.has(started.status)) return serializeMessage(started);
    return finalMessage(followAnswer(app, application.ownerId, job.answerUuid));
  }
  const [thread] = await app.db
    .select({ chatroom: chatrooms })
    .from(integrationThreads)
    .innerJoin(chatrooms, eq(chatrooms.id, integrationThreads.chatroomId))
    .where(
      and(
        eq(integrationThreads.integrationId, integration.id),
        eq(integrationThreads.threadKey, job.threadKey),
      ),
    );
  // Subscribed before the answer exists, so that none of its events is missed.
  const follower = followAnswer(app, application.ownerId, job.answerUuid);
  const posted = await postMessage(app, {
    application,
    chatroom: thread?.chatroom.applicationId === application.id ? thread.chatroom : undefined,
    source: integration.kind,
    senderIdentifier: senderOf(job),
    message: job.question,
    metadata: metadataOf(job),
    sendToUser: false,
    answerUuid: job.answerUuid,
  }).catch((error: unknown) => {
    follower.close();
    throw error;
  });
  if (!thread) {
    const [room] = await app.db
      .select({ id: chatrooms.id })
      .from(chatrooms)
      .where(eq(chatrooms.uuid, posted.chatroom.uuid));
    await app.db
      .insert(integrationThreads)
      .values({ integrationId: integration.id, threadKey: job.threadKey, chatroomId: room!.id })
      .onConflictDoNothing();
  }
  if (!posted.answer) {
    follower.close();
    return null;
  }
  return finalMessage(follower);
}
