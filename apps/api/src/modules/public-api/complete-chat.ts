import type { TMessage } from '@cairn/contracts/chat';
import type {
  TChatCompletion,
  TChatCompletionChunk,
  TChatCompletionRequest,
  TCompletionUsage,
} from '@cairn/contracts/public-api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../../lib/ctx.ts';
import { sendEvents } from '../../lib/send-events.ts';
import { type AnswerStep, FollowerClosedError } from './follow-answer.ts';
import { openEventStream } from './open-event-stream.ts';
import { modelNotFound } from './openai-error.ts';
import { requestConversation } from './request-conversation.ts';
import {
  channelConversation,
  endedFailure,
  failureOf,
  finalMessage,
  sourcesOf,
  startAnswer,
  tokensOf,
} from './start-answer.ts';

function usageOf(message: TMessage): TCompletionUsage {
  const { input, output } = tokensOf(message);
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}

const finishReasonOf = (message: TMessage) =>
  message.metadata.finish_reason === 'length' ? 'length' : 'stop';

/**
 * `POST /api/v1/chat/completions`: the question is stored as a conversation of the application
 * (`source: api`) and answered exactly as in the chat — same retrieval, model, citations — and the
 * answer is sent back in the Chat Completions format, whole or as server-sent events.
 */
export async function completeChat(
  app: Ctx,
  request: FastifyRequest,
  reply: FastifyReply,
  body: TChatCompletionRequest,
) {
  const { application } = request.apiKey;
  if (body.model !== application.uuid) throw modelNotFound(body.model);
  const conversation = requestConversation(body.messages);
  const chatroom = body.conversation_id
    ? await channelConversation(app, request.apiKey, 'api', body.conversation_id)
    : undefined;
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const { posted, answerUuid, follower } = await startAnswer(app, request.apiKey, {
    source: 'api',
    chatroom,
    question: conversation.question,
    answerRequest: {
      ...(conversation.instructions && { instructions: conversation.instructions }),
      ...(typeof body.temperature === 'number' && { temperature: body.temperature }),
      ...(maxTokens !== undefined && { max_tokens: maxTokens }),
      // A stored conversation is its own history; a new one has only what the request brought.
      ...(!chatroom && { history: conversation.history }),
    },
  });
  // A client that goes away stops listening; the answer is still finished and stored for the owner.
  // (The response's `close`: the request's fires as soon as its body is read.)
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
      sendEvents(res, delta(step.text));
      return;
    }
    if (step.kind === 'restarted' || step.kind === 'interrupted') {
      follower.close();
      res.end(`data: ${JSON.stringify(endedFailure(step.kind).body())}\n\n`);
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
          if (step.kind === 'interrupted') {
            reject(endedFailure(step.kind));
            return;
          }
          started = true;
          openEventStream(reply);
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
