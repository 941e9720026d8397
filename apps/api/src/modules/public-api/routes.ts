import { PUBLIC_API_BASE_PATH } from '@cairn/contracts/api-keys';
import {
  ZChatCompletion,
  ZChatCompletionChunk,
  ZChatCompletionRequest,
  ZOpenAIErrorBody,
  ZPublicModel,
  ZPublicModelList,
} from '@cairn/contracts/public-api';
import { ZResponse, ZResponseRequest, ZResponseStreamEvent } from '@cairn/contracts/responses';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import { apiKeyAuthenticator } from './authenticate-api-key.ts';
import { completeChat } from './complete-chat.ts';
import { createResponse, getStoredResponse } from './create-response.ts';
import { settleFollowers } from './follow-answer.ts';
import { modelNotFound, OpenAIError, sendOpenAIError, toOpenAIError } from './openai-error.ts';

const errors = {
  400: ZOpenAIErrorBody,
  401: ZOpenAIErrorBody,
  404: ZOpenAIErrorBody,
  413: ZOpenAIErrorBody,
  429: ZOpenAIErrorBody,
};

const modelOf = (application: ApplicationRow) => ({
  id: application.uuid,
  object: 'model' as const,
  created: Math.floor(application.createdAt.getTime() / 1000),
  owned_by: 'cairn',
});

/**
 * The OpenAI-compatible API of each application (`PUBLIC_URL/api/v1`), for any OpenAI client:
 * authenticated by an application API key only, answering and failing in OpenAI's formats.
 */
async function publicApi(fastify: FastifyInstance) {
  fastify.setErrorHandler((error: FastifyError, request, reply) =>
    sendOpenAIError(reply, toOpenAIError(error, request)),
  );
  fastify.addHook('onRequest', apiKeyAuthenticator(fastify));
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['openai-compatible'], security: [{ apiKey: [] }] };

  app.get(
    '/models',
    {
      schema: {
        ...base,
        description: "The one model a key reaches: its application (`id` is the application's uuid).",
        response: { 200: ZPublicModelList, ...errors },
      },
    },
    (request) => ({ object: 'list' as const, data: [modelOf(request.apiKey.application)] }),
  );

  app.get(
    '/models/:model',
    {
      schema: {
        ...base,
        params: z.object({ model: z.string() }),
        response: { 200: ZPublicModel, ...errors },
      },
    },
    (request) => {
      const { application } = request.apiKey;
      if (request.params.model !== application.uuid) throw modelNotFound(request.params.model);
      return modelOf(application);
    },
  );

  app.post(
    '/chat/completions',
    {
      schema: {
        ...base,
        description:
          "Chat Completions, as OpenAI's: `model` is the application's uuid; the last `user` message is the " +
          'question, earlier `user`/`assistant` messages the history, and `system`/`developer` messages add to ' +
          "the application's instructions. The answer comes from the application's knowledge with inline `[n]` " +
          'citations, exactly as in the chat. With `stream: true` the answer is `text/event-stream`: ' +
          '`chat.completion.chunk` objects (the first delta carries `role`, the last chunk with choices carries ' +
          '`finish_reason` and `sources`), one more chunk with `choices: []` and `usage` when ' +
          '`stream_options.include_usage`, then `data: [DONE]`; a failure after the first chunk is sent as ' +
          '`data: {"error": …}`. Tools, `n` > 1 and a `response_format` other than text are refused (400).\n\n' +
          'Cairn fields that standard clients ignore: `sources` (the cited passages, `index` = the `[n]` in the ' +
          'text) and `conversation_id` (also in the `x-cairn-conversation-id` header). Every call is stored as ' +
          'a conversation of the application (source `api`). To continue one without resending the history, ' +
          'send `conversation_id` back in the request body (Python: `extra_body={"conversation_id": …}`; ' +
          'JavaScript: add it to the create() parameters); its stored turns are then the history and earlier ' +
          "request messages are not used. Usage is the provider's reported tokens, or a real tokenizer's " +
          'count (cl100k_base) for the built-in models. A provider failure is a 502 (`x-should-retry: false`) ' +
          'or, when a retry may succeed, a 503 (`x-should-retry: true`). A conversation its owner took over ' +
          '(`handled_by: human`) is not answered: a 409 (`conversation_handled_by_human`).',
        body: ZChatCompletionRequest,
        response: {
          200: {
            description:
              'The completion, or with `stream: true` server-sent events: each `data:` line one ' +
              '`chat.completion.chunk`, then `data: [DONE]`.',
            content: {
              'application/json': { schema: ZChatCompletion },
              'text/event-stream': { schema: ZChatCompletionChunk },
            },
          },
          ...errors,
          409: ZOpenAIErrorBody,
          502: ZOpenAIErrorBody,
          503: ZOpenAIErrorBody,
        },
      },
    },
    (request, reply) => completeChat(app, request, reply, request.body),
  );

  app.post(
    '/responses',
    {
      schema: {
        ...base,
        description:
          "OpenAI's Responses API: `model` is the application's uuid; `input` is the question (a string) or a list " +
          "of message items (the last one the user's question, earlier ones the history; `system`/`developer` " +
          "items and `instructions` add to the application's instructions). The answer comes from the " +
          "application's knowledge, exactly as in the chat: one `message` output item whose `output_text` cites " +
          "passages as `[n]`, each citation a `file_citation` annotation (`file_id` = the knowledge item's uuid, " +
          '`filename` its title, `index` where the citation stands); `output_text` and honest `usage` (the ' +
          "provider's tokens, or cl100k_base counts for the built-in models). `temperature` and " +
          '`max_output_tokens` are honoured (cut short: `status: incomplete`). With `stream: true`: ' +
          '`text/event-stream` of `response.created`, `response.in_progress`, `response.output_item.added`, ' +
          '`response.content_part.added`, `response.output_text.delta`…, `response.output_text.annotation.added`…, ' +
          '`response.output_text.done`, `response.content_part.done`, `response.output_item.done`, then ' +
          '`response.completed` (or `response.incomplete`, or `response.failed` when the answer fails after its ' +
          'first text), each with a `sequence_number`. Every call is a conversation of the application (source ' +
          '`api`, also in `conversation_id` and the `x-cairn-conversation-id` header). Unless `store: false`, the ' +
          'response is kept: `GET /responses/{id}` reads it and `previous_response_id` continues its conversation ' +
          '(its stored turns are the history). `tools`, `reasoning` and `background` are refused with a 400 naming ' +
          'the parameter; a provider failure before any text is a 502 or 503 as for Chat Completions.',
        body: ZResponseRequest,
        response: {
          200: {
            description:
              'The response, or with `stream: true` server-sent events (`event:` = the event `type`).',
            content: {
              'application/json': { schema: ZResponse },
              'text/event-stream': { schema: ZResponseStreamEvent },
            },
          },
          ...errors,
          409: ZOpenAIErrorBody,
          502: ZOpenAIErrorBody,
          503: ZOpenAIErrorBody,
        },
      },
    },
    (request, reply) => createResponse(app, request, reply, request.body),
  );

  app.get(
    '/responses/:response_id',
    {
      schema: {
        ...base,
        description:
          'A stored response of this application (created without `store: false`), as it was returned.',
        params: z.object({ response_id: z.string().max(200) }),
        response: { 200: ZResponse, ...errors },
      },
    },
    (request) => getStoredResponse(app, request.apiKey, request.params.response_id),
  );

  // Anything else under /api/v1 is answered in OpenAI's shape too.
  app.all('/*', { schema: { hide: true } }, (request) => {
    throw new OpenAIError(
      404,
      `Unknown request URL: ${request.method} ${request.url.split('?')[0]}. Supported: GET /models, POST /chat/completions, POST /responses, GET /responses/{id}, POST /mcp.`,
      'invalid_request_error',
      'unknown_url',
    );
  });
}

export default async function publicApiRoutes(app: FastifyInstance) {
  await app.register(publicApi, { prefix: PUBLIC_API_BASE_PATH });
  // Public-API requests under way wait for their answers during a drain, wherever they are written.
  app.lifecycle.onDrain((timeoutMs) => settleFollowers(app, timeoutMs));
  // Closed without a drain (a second signal, tests) or after one: requests still following an
  // answer end with a retryable error rather than holding the server open (decision 061).
  app.addHook('preClose', async () => settleFollowers(app, 0));
}
