import { ZAppParams } from '@cairn/contracts/applications';
import { ZErrorBody } from '@cairn/contracts/errors';
import { ZKnowledgeSearchRequest, ZKnowledgeSearchResponse } from '@cairn/contracts/knowledge-search';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { searchKnowledge } from './search-knowledge.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody, 503: ZErrorBody };

export default async function knowledgeSearchRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/applications/:appId/knowledge/search/',
    {
      schema: {
        tags: ['knowledge'],
        security: [{ token: [] }],
        description:
          'Hybrid search of the application’s knowledge: BM25 over stemmed words, fused by reciprocal rank with vector similarity when the application has an embedding model.',
        params: ZAppParams,
        body: ZKnowledgeSearchRequest,
        response: { 200: ZKnowledgeSearchResponse, ...errors },
      },
    },
    (request) => searchKnowledge(app, request.user.id, request.params.appId, request.body),
  );
}
