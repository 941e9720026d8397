import { randomUUID } from 'node:crypto';
import type { TChatroomSource, TMessage, TSendMessageResponse, TSource } from '@cairn/contracts/chat';
import { chatrooms } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { AnswerRequest } from '../chatrooms/answer/answer-queue.ts';
import { postMessage } from '../chatrooms/post-message.ts';
import type { ChatroomRow } from '../chatrooms/serialize-chat.ts';
import type { KeyPrincipal } from './authenticate-api-key.ts';
import { type AnswerFollower, followAnswer } from './follow-answer.ts';
import { OpenAIError } from './openai-error.ts';

/** Provider failures a later attempt may get past; the others (a bad key, a missing model) will not. */
const RETRYABLE = new Set(['rate_limited', 'timeout', 'unreachable', 'retrieval', 'interrupted']);

/** A failed answer as the error a client of the key's API gets (503 when a retry may succeed). */
export function failureOf(message: TMessage): OpenAIError {
  const kind =
    typeof message.metadata.error_kind === 'string' ? message.metadata.error_kind : 'provider_error';
  const detail = typeof message.metadata.error === 'string' ? message.metadata.error : 'The answer failed.';
  const retry = RETRYABLE.has(kind);
  return new OpenAIError(
    retry ? 503 : 502,
    `The application could not answer: ${detail}`,
    'api_error',
    kind,
    null,
    retry,
  );
}

const ENDED = {
  restarted:
    'its server stopped while writing the answer, and the answer written again differs from the text already sent.',
  interrupted: 'the server is restarting before the answer was finished.',
};

/**
 * An answer this request cannot see to its end (decision 061): written again with a text that
 * departs from the one already streamed, or followed by a process that is stopping. A retryable
 * error, never a mixed or cut answer taken for a whole one.
 */
export const endedFailure = (kind: keyof typeof ENDED) =>
  new OpenAIError(
    503,
    `The application could not answer: ${ENDED[kind]} Ask again; the complete answer is also stored in the conversation.`,
    'api_error',
    'interrupted',
    null,
    true,
  );

export const sourcesOf = (message: TMessage) => (message.metadata.sources ?? []) as TSource[];

/** The answer's token counts: the provider's, or the built-in models' tokenizer count. */
export function tokensOf(message: TMessage) {
  const usage = (message.metadata.usage ?? {}) as { input_tokens?: number; output_tokens?: number };
  return { input: usage.input_tokens ?? 0, output: usage.output_tokens ?? 0 };
}

/**
 * A person took the conversation over: the assistant does not answer in it, so there is no answer to
 * wait for. A 409 the client should not retry, whether or not the question got stored first.
 */
export const handledByHuman = (stored: boolean, param = 'conversation_id') =>
  new OpenAIError(
    409,
    'A person handles this conversation (its owner took it over), so the application does not answer in it. ' +
      (stored
        ? 'Your question was stored for them.'
        : `Your question was not stored; start a new conversation by leaving out \`${param}\`.`),
    'invalid_request_error',
    'conversation_handled_by_human',
    param,
  );

/**
 * The conversation of the key's application, started through this channel, that a request
 * continues; a 404 naming `param` for any other (another application's, the owner's own chats).
 */
export async function channelConversation(
  app: Ctx,
  principal: KeyPrincipal,
  source: TChatroomSource,
  uuid: string,
  param = 'conversation_id',
): Promise<ChatroomRow> {
  const [chatroom] = await app.db
    .select()
    .from(chatrooms)
    .where(
      and(
        eq(chatrooms.uuid, uuid),
        eq(chatrooms.applicationId, principal.application.id),
        eq(chatrooms.source, source),
      ),
    );
  if (!chatroom) {
    throw new OpenAIError(
      404,
      `No conversation \`${uuid.slice(0, 100)}\` of this application was started through ${source === 'mcp' ? 'MCP' : 'the API'} (it may have been deleted).`,
      'invalid_request_error',
      'conversation_not_found',
      param,
    );
  }
  // Refused before anything is stored: the client learns it must not wait for an answer.
  if (chatroom.handledBy === 'human') throw handledByHuman(false, param);
  return chatroom;
}

export interface StartedAnswer {
  posted: TSendMessageResponse & { answer: TMessage };
  answerUuid: string;
  follower: AnswerFollower;
}

/**
 * Stores a key's question in a conversation of its application (a new one of `source`, or
 * `chatroom`) with the same `postMessage` every channel uses, and follows its answer from before it
 * can start (decision 040). The caller reads the follower and closes it.
 */
export async function startAnswer(
  app: Ctx,
  principal: KeyPrincipal,
  input: {
    source: TChatroomSource;
    chatroom: ChatroomRow | undefined;
    question: string;
    answerRequest: AnswerRequest;
    param?: string;
  },
): Promise<StartedAnswer> {
  const { key, application } = principal;
  const answerUuid = randomUUID();
  const follower = followAnswer(app, application.ownerId, answerUuid);
  const posted = await postMessage(app, {
    application,
    chatroom: input.chatroom,
    source: input.source,
    senderIdentifier: `${input.source}_${key.uuid}`,
    message: input.question,
    metadata: { source: input.source, api_key: { uuid: key.uuid, name: key.name } },
    sendToUser: false,
    answerRequest: input.answerRequest,
    answerUuid,
  }).catch((error: unknown) => {
    follower.close();
    throw error;
  });
  // Taken over between the check and the store: the question is kept, but nobody will answer.
  if (!posted.answer) {
    follower.close();
    throw handledByHuman(true, input.param);
  }
  return { posted: posted as StartedAnswer['posted'], answerUuid, follower };
}

/** Reads the follower to the end: the final message (its text is the whole answer). */
export async function finalMessage(follower: AnswerFollower): Promise<TMessage> {
  for (;;) {
    const step = await follower.next();
    if (step.kind === 'done') return step.message;
    if (step.kind === 'interrupted') throw endedFailure(step.kind);
  }
}
