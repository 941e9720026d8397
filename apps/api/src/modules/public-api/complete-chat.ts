import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { TMessage, TSource } from '@cairn/contracts/chat';
import type {
  TChatCompletion,
  TChatCompletionChunk,
  TChatCompletionRequest,
  TCompletionUsage,
} from '@cairn/contracts/public-api';
import { chatrooms } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { postMessage } from '../chatrooms/post-message.ts';
import { type AnswerFollower, FollowerClosedError, followAnswer } from './follow-answer.ts';
import { modelNotFound, OpenAIError } from './openai-error.ts';
import { requestConversation } from './request-conversation.ts';

/** Provider failures a later attempt may get past; the others (a bad key, a missing model) will not. */
const RETRYABLE = new Set(['rate_limited', 'timeout', 'unreachable', 'retrieval', 'interrupted']);

function failureOf(message: TMessage): OpenAIError {
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

function usageOf(message: TMessage): TCompletionUsage {
  const usage = (message.metadata.usage ?? {}) as { input_tokens?: number; output_tokens?: number };
  const prompt = usage.input_tokens ?? 0;
  const completion = usage.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * A person took the conversation over: the assistant does not answer in it, so there is no answer to
 * wait for. A 409 the client should not retry, whether or not the question got stored first.
 */
const handledByHuman = (stored: boolean) =>
  new OpenAIError(
    409,
    'A person handles this conversation (its owner took it over), so the application does not answer in it. ' +
      (stored
        ? 'Your question was stored for them.'
        : 'Your question was not stored; start a new conversation by leaving out `conversation_id`.'),
    'invalid_request_error',
    'conversation_handled_by_human',
    'conversation_id',
  );

const sourcesOf = (message: TMessage) => (message.metadata.sources ?? []) as TSource[];
const finishReasonOf = (message: TMessage) =>
  message.metadata.finish_reason === 'length' ? 'length' : 'stop';

/** Reads the follower to the end: the final message (its text is the whole answer). */
async function finalMessage(follower: AnswerFollower): Promise<TMessage> {
  for (;;) {
    const step = await follower.next();
    if (step.kind === 'done') return step.message;
  }
}

/**
 * `POST /api/v1/chat/completions`: the question is stored as a conversation of the application
 * (`source: api`) and answered exactly as in the chat — same retrieval, model, citations — and the
 * answer is sent back in the Chat Completions format, whole or as server-sent events.
 */
export async function completeChat(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  body: TChatCompletionRequest,
) {
  const { key, application } = request.apiKey;
  if (body.model !== application.uuid) throw modelNotFound(body.model);
  const conversation = requestConversation(body.messages);
  let chatroom: typeof chatrooms.$inferSelect | undefined;
  if (body.conversation_id) {
    [chatroom] = await app.db
      .select()
      .from(chatrooms)
      .where(
        and(
          eq(chatrooms.uuid, body.conversation_id),
          eq(chatrooms.applicationId, application.id),
          eq(chatrooms.source, 'api'),
        ),
      );
    if (!chatroom) {
      throw new OpenAIError(
        404,
        `No conversation \`${body.conversation_id}\` of this application was started through the API (it may have been deleted).`,
        'invalid_request_error',
        'conversation_not_found',
        'conversation_id',
      );
    }
    // Refused before anything is stored: the client learns it must not wait for an answer.
    if (chatroom.handledBy === 'human') throw handledByHuman(false);
  }

  const answerUuid = randomUUID();
  const follower = followAnswer(app, application.ownerId, answerUuid);
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const posted = await postMessage(app, {
    application,
    chatroom,
    source: 'api',
    senderIdentifier: `api_${key.uuid}`,
    message: conversation.question,
    metadata: { source: 'api', api_key: { uuid: key.uuid, name: key.name } },
    sendToUser: false,
    answerRequest: {
      ...(conversation.instructions && { instructions: conversation.instructions }),
      ...(typeof body.temperature === 'number' && { temperature: body.temperature }),
      ...(maxTokens !== undefined && { max_tokens: maxTokens }),
      // A stored conversation is its own history; a new one has only what the request brought.
      ...(!chatroom && { history: conversation.history }),
    },
    answerUuid,
  }).catch((error: unknown) => {
    follower.close();
    throw error;
  });
  // A client that goes away stops listening; the answer is still finished and stored for the owner.
  // (The response's `close`: the request's fires as soon as its body is read.)
  // Taken over between the check above and the store: the question is kept, but nobody will answer.
  if (!posted.answer) {
    follower.close();
    throw handledByHuman(true);
  }
  reply.raw.once('close', () => follower.close());

  const head = {
    id: `chatcmpl-${answerUuid.replaceAll('-', '')}`,
    created: Math.floor(Date.parse(posted.answer.created_at) / 1000),
    model: application.uuid,
    conversation_id: posted.chatroom.uuid,
  };
  reply.header('x-cairn-conversation-id', posted.chatroom.uuid);

  if (!body.stream) {
    const message = await finalMessage(follower).catch((error: unknown) => {
      if (error instanceof FollowerClosedError) return null;
      throw error;
    });
    // The client is gone: there is nobody to answer.
    if (!message) return reply.status(499).send();
    if (message.status === 'failed') throw failureOf(message);
    return {
      ...head,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: message.message, refusal: null },
          logprobs: null,
          finish_reason: finishReasonOf(message),
        },
      ],
      usage: usageOf(message),
      sources: sourcesOf(message),
    } satisfies TChatCompletion;
  }

  // The status is decided by the first step: an answer that fails before any text is an HTTP error.
  const first = await follower.next();
  if (first.kind === 'done' && first.message.status === 'failed' && !first.message.message) {
    throw failureOf(first.message);
  }
  const out = new PassThrough();
  const includeUsage = body.stream_options?.include_usage === true;
  const chunk = (fields: Pick<TChatCompletionChunk, 'choices'> & Partial<TChatCompletionChunk>) =>
    `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...(includeUsage && { usage: null }), ...fields })}\n\n`;
  let roleSent = false;
  const delta = (content: string) => {
    const piece = {
      index: 0,
      delta: { ...(!roleSent && { role: 'assistant' as const }), content },
      logprobs: null,
      finish_reason: null,
    };
    roleSent = true;
    return chunk({ choices: [piece] });
  };

  async function pump(step: Awaited<ReturnType<AnswerFollower['next']>>) {
    for (;;) {
      if (step.kind === 'text') {
        out.write(delta(step.text));
      } else {
        const message = step.message;
        if (message.status === 'failed') {
          // Mid-stream, the status is sent already: OpenAI clients raise an error event as an APIError.
          out.end(`data: ${JSON.stringify(failureOf(message).body())}\n\n`);
          return;
        }
        if (!roleSent) out.write(delta(''));
        out.write(
          chunk({
            choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finishReasonOf(message) }],
            sources: sourcesOf(message),
          }),
        );
        if (includeUsage) out.write(chunk({ choices: [], usage: usageOf(message) }));
        out.end('data: [DONE]\n\n');
        return;
      }
      step = await follower.next();
    }
  }
  pump(first).catch((err: unknown) => {
    if (!(err instanceof FollowerClosedError)) request.log.error({ err }, 'streaming a completion failed');
    out.destroy();
  });
  reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no');
  return reply.send(out);
}
