import {
  ZApplication,
  ZApplicationList,
  ZAppParams,
  ZCreateApplicationForm,
  ZUpdateApplicationRequest,
} from '@cairn/contracts/applications';
import { ZErrorBody } from '@cairn/contracts/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readForm } from '../../lib/multipart.ts';
import { parseOrThrow } from '../../lib/parse.ts';
import { createApplication } from './create-application.ts';
import { findApplication } from './find-application.ts';
import { listApplications } from './list-applications.ts';
import { serializeApplication } from './serialize-application.ts';
import { deleteApplication, updateApplicationSettings } from './update-application.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };

export default async function applicationRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['applications'], security: [{ token: [] }] };

  app.get(
    '/api/applications/',
    { schema: { ...base, response: { 200: ZApplicationList, ...errors } } },
    (request) => listApplications(app.db, request.user.id),
  );

  app.post(
    '/api/applications/',
    {
      schema: {
        ...base,
        description: 'multipart/form-data (or JSON): `name`.',
        consumes: ['multipart/form-data', 'application/json'],
        response: { 201: ZApplication, ...errors },
      },
    },
    async (request, reply) => {
      const form = await readForm(request);
      const input = parseOrThrow(ZCreateApplicationForm, form.fields);
      reply.status(201);
      return createApplication(app.db, request.user.id, input);
    },
  );

  app.get(
    '/api/applications/:appId/',
    { schema: { ...base, params: ZAppParams, response: { 200: ZApplication, ...errors } } },
    async (request) =>
      serializeApplication(await findApplication(app.db, request.user.id, request.params.appId)),
  );

  app.patch(
    '/api/applications/:appId/',
    {
      schema: {
        ...base,
        description:
          'Renames the application and changes its settings. `llm_models` lists model uuids (from ' +
          '`GET /api/models/`) in order: the first text and the first embedding model are the selected ' +
          'ones. Changing the selected embedding model re-indexes all knowledge of the application.',
        params: ZAppParams,
        body: ZUpdateApplicationRequest,
        response: { 200: ZApplication, ...errors },
      },
    },
    async (request) => {
      const result = await updateApplicationSettings(
        app.db,
        request.user.id,
        request.params.appId,
        request.body,
      );
      return result.application;
    },
  );

  app.delete(
    '/api/applications/:appId/',
    { schema: { ...base, params: ZAppParams, response: { 204: z.null().describe('Deleted'), ...errors } } },
    async (request, reply) => {
      await deleteApplication(app.db, request.user.id, request.params.appId);
      return reply.status(204).send(null);
    },
  );
}
