import { PUBLIC_API_BASE_PATH } from '@cairn/contracts/api-keys';
import {
  ZChatCompletion,
  ZChatCompletionChunk,
  ZChatCompletionRequest,
  ZOpenAIErrorBody,
  ZPublicModel,
  ZPublicModelList,
} from '@cairn/contracts/public-api';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import { apiKeyAuthenticator } from './authenticate-api-key.ts';
import { completeChat } from './complete-chat.ts';
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

  // Anything else under /api/v1 is answered in OpenAI's shape too.
  app.all('/*', { schema: { hide: true } }, (request) => {
    throw new OpenAIError(
      404,
      `Unknown request URL: ${request.method} ${request.url.split('?')[0]}. Supported: GET /models, POST /chat/completions.`,
      'invalid_request_error',
      'unknown_url',
    );
  });
}

export default async function publicApiRoutes(app: FastifyInstance) {
  await app.register(publicApi, { prefix: PUBLIC_API_BASE_PATH });
}
