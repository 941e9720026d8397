import {
  ZApplication,
  ZApplicationList,
  ZApplicationSummaryList,
  ZAppParams,
  ZCreateApplicationForm,
  ZCreateApplicationMultipart,
  ZDuplicateApplicationRequest,
  ZUpdateApplicationRequest,
} from '@cairn/contracts/applications';
import { ZErrorBody } from '@cairn/contracts/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { collectErrors } from '../../lib/collect-errors.ts';
import { findApplication } from '../../lib/find-application.ts';
import { readForm } from '../../lib/multipart.ts';
import { parseOrThrow } from '../../lib/parse.ts';
import { checkEmbeddingModel } from '../../models/check-embedding-model.ts';
import { prepareItemRows } from '../knowledge/queue-items.ts';
import { readItems } from '../knowledge/read-items.ts';
import { requeueApplicationItems } from '../model-providers/reindex-application.ts';
import { createApplication } from './create-application.ts';
import { deleteApplication } from './delete-application.ts';
import { duplicateApplication } from './duplicate-application.ts';
import { listApplicationSummaries } from './list-application-summaries.ts';
import { listApplications } from './list-applications.ts';
import { serializeApplication } from './serialize-application.ts';
import { updateApplicationSettings } from './update-application.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };

export default async function applicationRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['applications'], security: [{ token: [] }] };

  app.get(
    '/api/applications/',
    { schema: { ...base, response: { 200: ZApplicationList, ...errors } } },
    (request) => listApplications(app, request.user.id),
  );

  app.get(
    '/api/applications/summaries/',
    {
      schema: {
        ...base,
        description:
          'The applications, oldest first, each with `counts`: its knowledge items, conversations and API keys, and whether its widget is on.',
        response: { 200: ZApplicationSummaryList, ...errors },
      },
    },
    (request) => listApplicationSummaries(app, request.user.id),
  );

  app.post(
    '/api/applications/',
    {
      schema: {
        ...base,
        description:
          'multipart/form-data (or JSON): `name`; for each knowledge item i, `items[i].type` (file | text | url | qa) plus `items[i].file` (file) or `items[i].value` (text body or URL), or the fields of a Q&A pair as in the knowledge POST; optionally `items[i].title`. The application and every item are created together and the items queued for ingestion.',
        response: { 201: ZApplication, ...errors, 413: ZErrorBody },
      },
      config: { formBody: ZCreateApplicationMultipart },
    },
    async (request, reply) => {
      const form = await readForm(request);
      // Name and items are checked together, so one answer lists every problem.
      const [input, items] = collectErrors(
        () => parseOrThrow(ZCreateApplicationForm, form.fields),
        () => readItems(form),
      );
      const rows = await prepareItemRows(app.knowledge.files, items);
      const created = await createApplication(app, request.user.id, input, {
        rows,
        enqueue: (ids, options) => app.knowledge.enqueue(ids, options),
      });
      const owner = { ownerId: request.user.id, applicationUuid: created.application.uuid };
      for (const item of created.items) await app.knowledge.deps.publish(owner, item);
      reply.status(201);
      return created.application;
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
          'ones. A newly selected embedding model is checked first with one test embedding (refused with ' +
          "the provider's answer when it fails); changing it re-indexes all knowledge of the application. " +
          '`conversation_retention_days` (1–3650, or null to keep them forever): a daily job deletes the ' +
          'conversations whose last message is older, with their messages and notifications.',
        params: ZAppParams,
        body: ZUpdateApplicationRequest,
        response: { 200: ZApplication, ...errors },
      },
    },
    async (request) => {
      const { appId } = request.params;
      const result = await updateApplicationSettings(app.db, request.user.id, appId, request.body, {
        checkEmbedding: (model) => checkEmbeddingModel(app, model),
        onEmbeddingChange: (tx, id) => requeueApplicationItems(tx, app.knowledge.enqueue, id),
      });
      // Each re-queued item is announced at once: the knowledge page shows the re-index progress.
      const owner = { ownerId: request.user.id, applicationUuid: appId };
      for (const item of result.reindexed) await app.knowledge.deps.publish(owner, item);
      return result.application;
    },
  );

  app.post(
    '/api/applications/:appId/duplicate/',
    {
      schema: {
        ...base,
        description:
          'Creates a copy of the application: its settings, models, widget appearance (switched off) and ' +
          'knowledge (indexed items with their index, searchable at once; unfinished ones queued again). ' +
          'Conversations, API keys, integrations and webhooks are not copied. `name` defaults to the ' +
          'original\'s followed by " (copy)".',
        params: ZAppParams,
        body: ZDuplicateApplicationRequest.nullish(),
        response: { 201: ZApplication, ...errors },
      },
    },
    async (request, reply) => {
      const { application, queued } = await duplicateApplication(
        app,
        request.user.id,
        request.params.appId,
        request.body ?? {},
        app.knowledge.enqueue,
      );
      const owner = { ownerId: request.user.id, applicationUuid: application.uuid };
      for (const item of queued) await app.knowledge.deps.publish(owner, item);
      reply.status(201);
      return application;
    },
  );

  app.delete(
    '/api/applications/:appId/',
    { schema: { ...base, params: ZAppParams, response: { 204: z.null().describe('Deleted'), ...errors } } },
    async (request, reply) => {
      await deleteApplication(app, request.user.id, request.params.appId);
      return reply.status(204).send(null);
    },
  );
}
