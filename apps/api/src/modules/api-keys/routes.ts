import { ZApiKeyList, ZApiKeyParams, ZCreateApiKeyRequest, ZCreatedApiKey } from '@cairn/contracts/api-keys';
import { ZAppParams } from '@cairn/contracts/applications';
import { ZErrorBody } from '@cairn/contracts/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createApiKey } from './create-api-key.ts';
import { deleteApiKey } from './delete-api-key.ts';
import { listApiKeys } from './list-api-keys.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const prefix = '/api/applications/:appId/api-keys';

/** The owner's keys of an application (session auth; the keys themselves work on `/api/v1` only). */
export default async function apiKeyRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['api keys'], security: [{ token: [] }] };

  app.get(
    `${prefix}/`,
    { schema: { ...base, params: ZAppParams, response: { 200: ZApiKeyList, ...errors } } },
    (request) => listApiKeys(app, request.user.id, request.params.appId),
  );

  app.post(
    `${prefix}/`,
    {
      schema: {
        ...base,
        description:
          'Creates a key for the OpenAI-compatible API (`/api/v1`). The answer holds `key`: it is shown ' +
          'only this once (only its hash is stored). `requests_per_minute` defaults to 60.',
        params: ZAppParams,
        body: ZCreateApiKeyRequest,
        response: { 201: ZCreatedApiKey, ...errors, 409: ZErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return createApiKey(app, request.user.id, request.params.appId, request.body);
    },
  );

  app.delete(
    `${prefix}/:keyId/`,
    {
      schema: {
        ...base,
        description: 'Deletes the key: requests with it are refused at once, in every process.',
        params: ZApiKeyParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await deleteApiKey(app, request.user.id, request.params.appId, request.params.keyId);
      return reply.status(204).send(null);
    },
  );
}
