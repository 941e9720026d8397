import { ZAppParams } from '@cairn/contracts/applications';
import {
  ZAnswerUnansweredRequest,
  ZAttention,
  ZAttentionCount,
  ZFeedbackDismissParams,
  ZUnansweredParams,
} from '@cairn/contracts/attention';
import { ZErrorBody } from '@cairn/contracts/errors';
import { ZKnowledgeItem } from '@cairn/contracts/knowledge';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findApplication } from '../../lib/find-application.ts';
import { countAttention, getAttention } from './get-attention.ts';
import { answerUnanswered, dismissFeedback, dismissUnanswered } from './resolve-unanswered.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const prefix = '/api/applications/:appId/attention';

/** The owner's "Needs attention" inbox of an application (decision 048). */
export default async function attentionRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['attention'], security: [{ token: [] }] };

  app.get(
    `${prefix}/`,
    {
      schema: {
        ...base,
        description:
          'Conversations waiting for a person (oldest first), questions the knowledge did not cover grouped ' +
          'by similarity (most recently asked first), and answers rated 👎 (newest first); at most ' +
          '100 of each. Dismissed and answered entries are not listed.',
        params: ZAppParams,
        response: { 200: ZAttention, ...errors },
      },
    },
    async (request) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      return getAttention(app, application.id);
    },
  );

  app.get(
    `${prefix}/count/`,
    {
      schema: {
        ...base,
        description:
          'How many visitors wait for a person and how many groups of unanswered questions are open.',
        params: ZAppParams,
        response: { 200: ZAttentionCount, ...errors },
      },
    },
    async (request) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      return countAttention(app, application.id);
    },
  );

  app.post(
    `${prefix}/unanswered/:id/answer/`,
    {
      schema: {
        ...base,
        description:
          "Turns the question and the owner's answer into a Q&A pair (answered word for word), queued for " +
          'ingestion as usual, and marks the question answered.',
        params: ZUnansweredParams,
        body: ZAnswerUnansweredRequest,
        response: { 201: ZKnowledgeItem, ...errors },
      },
    },
    async (request, reply) =>
      app.knowledge.intake.run(async () => {
        const application = await findApplication(app.db, request.user.id, request.params.appId);
        const owner = {
          applicationId: application.id,
          applicationUuid: application.uuid,
          ownerId: request.user.id,
        };
        const item = await answerUnanswered(app, owner, request.params.id, request.body.answer);
        reply.status(201);
        return item;
      }),
  );

  app.post(
    `${prefix}/unanswered/:id/dismiss/`,
    {
      schema: {
        ...base,
        description: 'Hides the question from the inbox, also when it is asked again.',
        params: ZUnansweredParams,
        response: { 204: z.null().describe('Dismissed'), ...errors },
      },
    },
    async (request, reply) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      await dismissUnanswered(app, application.id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${prefix}/negative-feedback/:messageId/dismiss/`,
    {
      schema: {
        ...base,
        description: 'Hides an answer rated 👎 from the inbox; the rating itself stays.',
        params: ZFeedbackDismissParams,
        response: { 204: z.null().describe('Dismissed'), ...errors },
      },
    },
    async (request, reply) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      await dismissFeedback(app, application.id, request.params.messageId);
      return reply.status(204).send(null);
    },
  );
}
