import { randomUUID } from 'node:crypto';
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
import { type AnswerFollower, type AnswerStep, FollowerClosedError, followAnswer } from './follow-answer.ts';
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

  const res = reply.raw;
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

  function write(step: AnswerStep) {
    if (step.kind === 'text') {
      res.write(delta(step.text));
      return;
    }
    const message = step.message;
    if (message.status === 'failed') {
      // Mid-stream, the status is sent already: OpenAI clients raise an error event as an APIError.
      res.end(`data: ${JSON.stringify(failureOf(message).body())}\n\n`);
      return;
    }
    if (!roleSent) res.write(delta(''));
    res.write(
      chunk({
        choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finishReasonOf(message) }],
        sources: sourcesOf(message),
      }),
    );
    if (includeUsage) res.write(chunk({ choices: [], usage: usageOf(message) }));
    res.end('data: [DONE]\n\n');
  }

  // Each step is written from the event that brings it, not through a piped stream (its first
  // write waits a turn, behind whatever the answer does meanwhile): the reply is taken over from
  // Fastify once the first step decides the status — an answer that fails before any text is an
  // HTTP error — and its headers, those set so far included, are written here.
  let started = false;
  await new Promise<void>((resolve, reject) => {
    res.once('close', () => {
      if (!started) reject(new FollowerClosedError());
    });
    follower.forEach((step) => {
      try {
        if (!started) {
          if (step.kind === 'done' && step.message.status === 'failed' && !step.message.message) {
            reject(failureOf(step.message));
            return;
          }
          started = true;
          reply.hijack();
          for (const [name, value] of Object.entries(reply.getHeaders())) {
            if (value !== undefined) res.setHeader(name, value);
          }
          res.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache',
            'x-accel-buffering': 'no',
          });
          resolve();
        }
        write(step);
      } catch (err) {
        follower.close();
        if (!started) {
          reject(err);
          return;
        }
        request.log.error({ err }, 'streaming a completion failed');
        res.destroy();
        resolve();
      }
    });
  });
}
