import { ZErrorBody } from '@cairn/contracts/errors';
import {
  ZAddProviderModelRequest,
  ZAvailableModelList,
  ZCreateModelProviderRequest,
  ZModelProvider,
  ZModelProviderList,
  ZProviderModel,
  ZProviderModelParams,
  ZProviderParams,
  ZTestConnectionResponse,
  ZUpdateModelProviderRequest,
  ZUpdateProviderModelRequest,
} from '@cairn/contracts/model-providers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createModelProvider } from './create-model-provider.ts';
import { findModelProvider, modelsOf } from './find-model-provider.ts';
import { listAvailableModels } from './list-available-models.ts';
import { listModelProviders } from './list-model-providers.ts';
import { addProviderModel, removeProviderModel, updateProviderModel } from './provider-models.ts';
import { serializeModelProvider } from './serialize-model-provider.ts';
import { testProviderConnection } from './test-provider-connection.ts';
import { deleteModelProvider, updateModelProvider } from './update-model-provider.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const deleted = z.null().describe('Deleted');

/** Model providers of the signed-in user (`/api/model-providers/…`) and the models they may choose. */
export default async function modelProviderRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['model providers'], security: [{ token: [] }] };
  const one = '/api/model-providers/:providerId/';

  app.get(
    '/api/model-providers/',
    { schema: { ...base, response: { 200: ZModelProviderList, ...errors } } },
    (request) => listModelProviders(app, request.user.id),
  );

  app.post(
    '/api/model-providers/',
    {
      schema: {
        ...base,
        description:
          'Connects a provider. `base_url` defaults per kind (required for `openai_compatible`); ' +
          '`api_key` is required for `openai` and `anthropic`, stored encrypted, and never returned.',
        body: ZCreateModelProviderRequest,
        response: { 201: ZModelProvider, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return createModelProvider(app, request.user.id, request.body);
    },
  );

  app.get(
    one,
    { schema: { ...base, params: ZProviderParams, response: { 200: ZModelProvider, ...errors } } },
    async (request) => {
      const provider = await findModelProvider(app.db, request.user.id, request.params.providerId);
      return serializeModelProvider(provider, await modelsOf(app, provider.id));
    },
  );

  app.patch(
    one,
    {
      schema: {
        ...base,
        description:
          '`api_key`: a new key replaces the stored one, `null` or `""` removes it, absent keeps it.',
        params: ZProviderParams,
        body: ZUpdateModelProviderRequest,
        response: { 200: ZModelProvider, ...errors },
      },
    },
    (request) => updateModelProvider(app, request.user.id, request.params.providerId, request.body),
  );

  app.delete(
    one,
    { schema: { ...base, params: ZProviderParams, response: { 204: deleted, ...errors } } },
    async (request, reply) => {
      await deleteModelProvider(app, request.user.id, request.params.providerId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${one}test-connection/`,
    {
      schema: {
        ...base,
        description:
          'Asks the provider for its model list. A provider failure is `ok: false` with a `detail` ' +
          'a person understands (bad key, unreachable, timeout …), not an HTTP error.',
        params: ZProviderParams,
        response: { 200: ZTestConnectionResponse, ...errors },
      },
    },
    (request) => testProviderConnection(app, request.user.id, request.params.providerId),
  );

  app.post(
    `${one}models/`,
    {
      schema: {
        ...base,
        description: 'Adds a model by the name the provider uses, as a `text` or an `embedding` model.',
        params: ZProviderParams,
        body: ZAddProviderModelRequest,
        response: { 201: ZProviderModel, 409: ZErrorBody, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return addProviderModel(app, request.user.id, request.params.providerId, request.body);
    },
  );

  app.patch(
    `${one}models/:modelId/`,
    {
      schema: {
        ...base,
        description:
          'Sets (or clears with null) what the owner pays per million input and output tokens of the ' +
          "model, in their currency: the analytics' estimated cost.",
        params: ZProviderModelParams,
        body: ZUpdateProviderModelRequest,
        response: { 200: ZProviderModel, ...errors },
      },
    },
    (request) => updateProviderModel(app, request.user.id, request.params, request.body),
  );

  app.delete(
    `${one}models/:modelId/`,
    { schema: { ...base, params: ZProviderModelParams, response: { 204: deleted, ...errors } } },
    async (request, reply) => {
      await removeProviderModel(app, request.user.id, request.params.providerId, request.params.modelId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/models/',
    {
      schema: {
        ...base,
        description: 'Every model the caller can attach to an application: built-ins first, then providers’.',
        response: { 200: ZAvailableModelList, ...errors },
      },
    },
    (request) => listAvailableModels(app, request.user.id),
  );
}
