import { ZAppParams } from '@cairn/contracts/applications';
import { ZErrorBody } from '@cairn/contracts/errors';
import {
  ZKnowledgeItem,
  ZKnowledgeItemDetail,
  ZKnowledgeItemList,
  ZKnowledgeItemParams,
  ZKnowledgeItemsForm,
  ZQaImportForm,
  ZUpdateKnowledgeItemRequest,
} from '@cairn/contracts/knowledge';
import { ZKnowledgeChunkPage, ZKnowledgeChunksQuery } from '@cairn/contracts/knowledge-chunks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { findApplication } from '../../lib/find-application.ts';
import { readForm } from '../../lib/multipart.ts';
import { addItems } from './add-items.ts';
import { deleteItem } from './delete-item.ts';
import { getItem } from './get-item.ts';
import { importQaPairs } from './import-qa-pairs.ts';
import { listChunks } from './list-chunks.ts';
import { listItems } from './list-items.ts';
import { readItems } from './read-items.ts';
import { resyncItem } from './resync-item.ts';
import { updateItem } from './update-item.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 413: ZErrorBody };

export default async function knowledgeRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['knowledge'], security: [{ token: [] }] };

  async function owner(userId: number, appUuid: string) {
    const application = await findApplication(app.db, userId, appUuid);
    return { applicationId: application.id, applicationUuid: application.uuid, ownerId: userId };
  }

  app.get(
    '/api/applications/:appId/knowledge/',
    { schema: { ...base, params: ZAppParams, response: { 200: ZKnowledgeItemList, ...errors } } },
    async (request) => {
      const { applicationId } = await owner(request.user.id, request.params.appId);
      return listItems(app, applicationId);
    },
  );

  app.post(
    '/api/applications/:appId/knowledge/',
    {
      schema: {
        ...base,
        description:
          "multipart/form-data: for each item i, `items[i].type` (file | text | url | qa) plus `items[i].file` (file) or `items[i].value` (text body or URL), or for a Q&A pair `items[i].question`, `items[i].answer` and optional `items[i].alternatives` (other phrasings, one per line, at most 20); optional `items[i].title` (a pair's defaults to its question). url items may add `items[i].refresh_interval_hours` (1–720: re-checked on that schedule with ETag / Last-Modified, re-indexed only when changed) and a whole-site import: `items[i].crawl` (JSON `{max_pages ≤ 1000, include, exclude}` path globs: follows same-site links) or `items[i].sitemap=true` (the address is a sitemap or sitemap index; `crawl` then only filters and caps). Same origin only, robots.txt respected (CairnBot); each page becomes an item whose `site_root` is the root. The items are queued for ingestion.",
        params: ZAppParams,
        response: { 201: ZKnowledgeItemList, ...errors },
      },
      config: { formBody: ZKnowledgeItemsForm },
    },
    async (request, reply) => {
      return app.knowledge.intake.run(async () => {
        const target = await owner(request.user.id, request.params.appId);
        const inputs = readItems(await readForm(request));
        if (inputs.length === 0) {
          throw new AppError('invalid', 'items: Add at least one item.', {
            items: ['Add at least one item.'],
          });
        }
        reply.status(201);
        return addItems(app, target, inputs);
      });
    },
  );

  app.post(
    '/api/applications/:appId/knowledge/qa-import/',
    {
      schema: {
        ...base,
        description:
          'multipart/form-data with one CSV `file` of Q&A pairs: columns question, answer and optional alternatives (other phrasings separated by `|`), a header row optional, UTF-8 with or without a BOM, at most 1,000 rows. All or nothing: a bad row is a 400 naming it (`errors["row 7"]`). The pairs are queued for ingestion like any item.',
        params: ZAppParams,
        response: { 201: ZKnowledgeItemList, ...errors },
      },
      config: { formBody: ZQaImportForm },
    },
    async (request, reply) => {
      return app.knowledge.intake.run(async () => {
        const target = await owner(request.user.id, request.params.appId);
        const items = await importQaPairs(app, target, await readForm(request));
        reply.status(201);
        return items;
      });
    },
  );

  app.get(
    '/api/applications/:appId/knowledge/:itemId/',
    { schema: { ...base, params: ZKnowledgeItemParams, response: { 200: ZKnowledgeItemDetail, ...errors } } },
    async (request) => {
      const { applicationId } = await owner(request.user.id, request.params.appId);
      return getItem(app, applicationId, request.params.itemId);
    },
  );

  app.get(
    '/api/applications/:appId/knowledge/:itemId/chunks/',
    {
      schema: {
        ...base,
        description:
          'Every chunk of the item as indexed, in document order (heading, page, position), a page at a time: pass `next_cursor` as `cursor`.',
        params: ZKnowledgeItemParams,
        querystring: ZKnowledgeChunksQuery,
        response: { 200: ZKnowledgeChunkPage, ...errors },
      },
    },
    async (request) => {
      const { applicationId } = await owner(request.user.id, request.params.appId);
      return listChunks(app, applicationId, request.params.itemId, request.query);
    },
  );

  app.patch(
    '/api/applications/:appId/knowledge/:itemId/',
    {
      schema: {
        ...base,
        description:
          "Changes an item's settings (`enabled`; `refresh_interval_hours` of a url item or site root, null to stop), or a `qa` item's `question`, `answer` and `alternatives` (indexed again); other content changes by a re-sync.",
        params: ZKnowledgeItemParams,
        body: ZUpdateKnowledgeItemRequest,
        response: { 200: ZKnowledgeItem, ...errors },
      },
    },
    async (request) =>
      updateItem(
        app,
        await owner(request.user.id, request.params.appId),
        request.params.itemId,
        request.body,
      ),
  );

  app.delete(
    '/api/applications/:appId/knowledge/:itemId/',
    {
      schema: {
        ...base,
        params: ZKnowledgeItemParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await deleteItem(app, await owner(request.user.id, request.params.appId), request.params.itemId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/applications/:appId/knowledge/:itemId/resync/',
    {
      schema: {
        ...base,
        description: 'Queues the item again: a URL is fetched anew, anything else re-indexed.',
        params: ZKnowledgeItemParams,
        response: { 202: ZKnowledgeItem, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return resyncItem(app, await owner(request.user.id, request.params.appId), request.params.itemId);
    },
  );
}
