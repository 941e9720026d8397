import { chatroomNameFrom, type TMessage } from '@cairn/contracts/chat';
import { isFinalStatus } from '@cairn/contracts/message-rules';
import { chatrooms, integrationThreads, messages } from '@cairn/db/schema';
import { and, eq, TransactionRollbackError } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import { postMessage } from '../chatrooms/post-message.ts';
import { type ChatroomRow, serializeMessage } from '../chatrooms/serialize-chat.ts';
import { type AnswerFollower, followAnswer } from '../public-api/follow-answer.ts';
import type { IntegrationRow } from './find-integration.ts';
import type { ReplyJob } from './reply-job.ts';

/** An answer taking longer than this is given up on (its lease would have ended it long before). */
const ANSWER_TIMEOUT_MS = 5 * 60_000;

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

async function linkedChatroom(
  app: Ctx,
  integration: IntegrationRow,
  job: ReplyJob,
): Promise<ChatroomRow | undefined> {
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
  return thread?.chatroom;
}

/**
 * A new chatroom linked to the job's thread, or null when another job of the same thread linked
 * one first (messages arriving together are answered side by side). The chatroom and its link are
 * one transaction, rolled back when the link is taken: the loser leaves no chatroom behind, and
 * nothing of it was ever shown. PostgreSQL holds the loser's insert until the winner commits;
 * PGlite runs one transaction at a time.
 */
async function claimThread(
  app: Ctx,
  integration: IntegrationRow,
  application: ApplicationRow,
  job: ReplyJob,
): Promise<ChatroomRow | null> {
  return app.events
    .transaction(async (tx, emit) => {
      const [room] = await tx
        .insert(chatrooms)
        .values({
          applicationId: application.id,
          name: chatroomNameFrom(job.question),
          source: integration.kind,
        })
        .returning();
      const [link] = await tx
        .insert(integrationThreads)
        .values({ integrationId: integration.id, threadKey: job.threadKey, chatroomId: room!.id })
        .onConflictDoNothing({ target: [integrationThreads.integrationId, integrationThreads.threadKey] })
        .returning({ id: integrationThreads.id });
      if (!link) throw new TransactionRollbackError();
      // postMessage announces only the chatrooms it creates itself; this one is new all the same.
      emit('conversation.created', { application, chatroom: room! });
      return room!;
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return null;
      throw error;
    });
}

/** The chatroom of the job's thread, created (and announced) by the first job of the thread. */
async function threadChatroom(
  app: Ctx,
  integration: IntegrationRow,
  application: ApplicationRow,
  job: ReplyJob,
): Promise<ChatroomRow> {
  // A lost claim means the winner's link was committed; only an integration moved to another
  // application (its links deleted) in between sends this round again.
  for (;;) {
    const linked = await linkedChatroom(app, integration, job);
    if (linked) return linked;
    const claimed = await claimThread(app, integration, application, job);
    if (claimed) return claimed;
  }
}

/**
 * Asks the application the job's question in the conversation of its Slack thread or Telegram chat
 * (a chatroom with that source, created on the first message), through the same `postMessage` and
 * answer pipeline as every channel, and waits for the finished answer. Null when nobody answers: a
 * person took the chatroom over.
 */
export async function askApplication(
  app: Ctx,
  integration: IntegrationRow,
  application: ApplicationRow,
  job: ReplyJob,
): Promise<TMessage | null> {
  // A retried job: the question is stored already; follow (or read) the answer it started.
  const [started] = await app.db.select().from(messages).where(eq(messages.uuid, job.answerUuid));
  if (started) {
    if (isFinalStatus(started.status)) return serializeMessage(started);
    return finalMessage(followAnswer(app, application.ownerId, job.answerUuid));
  }
  const chatroom = await threadChatroom(app, integration, application, job);
  // Subscribed before the answer exists, so that none of its events is missed.
  const follower = followAnswer(app, application.ownerId, job.answerUuid);
  const posted = await postMessage(app, {
    application,
    // A link left by a job that raced the integration's move to another application: this
    // message starts a conversation of its own, as postMessage creates it.
    chatroom: chatroom.applicationId === application.id ? chatroom : undefined,
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
  if (!posted.answer) {
    follower.close();
    return null;
  }
  return finalMessage(follower);
}
