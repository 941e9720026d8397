import { ZAnalytics, ZAnalyticsQuery } from '@cairn/contracts/analytics';
import { ZAppParams } from '@cairn/contracts/applications';
import { ZErrorBody } from '@cairn/contracts/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { findApplication } from '../../lib/find-application.ts';
import { getAnalytics } from './get-analytics.ts';
import { subscribeAnalytics } from './record-analytics.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };

/** An application's analytics, read from the daily rollups the product's events keep (decision 066). */
export default async function analyticsRoutes(fastify: FastifyInstance) {
  subscribeAnalytics(fastify);
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/applications/:appId/analytics/',
    {
      schema: {
        tags: ['analytics'],
        security: [{ token: [] }],
        description:
          "Per day of the owner's time zone (every day from `from` to `to`, or of the last `days` days " +
          'ending today, default 30, at most 366): conversations started, messages, distinct visitors, answers rated ' +
          'up/down and not covered, handoffs requested and answered, the median wait for a human reply, ' +
          'first-token p50/p95 and tokens by model with the estimated cost; the totals of the range, its ' +
          'top 10 questions (grouped as the inbox groups them) and its most cited knowledge items.',
        params: ZAppParams,
        querystring: ZAnalyticsQuery,
        response: { 200: ZAnalytics, ...errors },
      },
    },
    async (request) => {
      const application = await findApplication(app.db, request.user.id, request.params.appId);
      return getAnalytics(app, application, request.query);
    },
  );
}
