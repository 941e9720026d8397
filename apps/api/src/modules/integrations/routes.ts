import { ZErrorBody } from '@cairn/contracts/errors';
import {
  ZCreateIntegrationRequest,
  ZIntegration,
  ZIntegrationList,
  ZIntegrationParams,
  ZUpdateIntegrationRequest,
} from '@cairn/contracts/integrations';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createIntegration } from './create-integration.ts';
import { deleteIntegration } from './delete-integration.ts';
import { findIntegration, listIntegrationRows } from './find-integration.ts';
import { serializeIntegration } from './serialize-integration.ts';
import { updateIntegration } from './update-integration.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const prefix = '/api/integrations';

const SETUP =
  'Slack: create an app (api.slack.com/apps), install it to the workspace, and give its Bot User OAuth Token ' +
  '(`xoxb-…`, OAuth & Permissions) and Signing Secret (Basic Information); the answer holds `manifest`, to paste in ' +
  'the app’s manifest editor (it sets the scopes, the events with `events_url` and the interactivity URL), then ' +
  'reinstall. Telegram: the token @BotFather gives; Cairn registers a webhook with a secret token when PUBLIC_URL ' +
  'is public https, and polls otherwise (`mode`, `mode_reason`). Tokens are checked with the service (Slack ' +
  '`auth.test`, Telegram `getMe`: 400 on `bot_token` when refused, 503 when the service cannot be reached), stored ' +
  'encrypted and never shown again.';

/** The owner's chat integrations (decision 047). */
export default async function integrationRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['integrations'], security: [{ token: [] }] };

  app.get(
    `${prefix}/`,
    { schema: { ...base, response: { 200: ZIntegrationList, ...errors } } },
    async (request) =>
      (await listIntegrationRows(app.db, request.user.id)).map((row) =>
        serializeIntegration(row, app.config.publicUrl),
      ),
  );

  app.post(
    `${prefix}/`,
    {
      schema: {
        ...base,
        description: `Connects a Slack app or a Telegram bot to an application. ${SETUP}`,
        body: ZCreateIntegrationRequest,
        response: { 201: ZIntegration, ...errors, 409: ZErrorBody, 503: ZErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return createIntegration(app, request.user.id, request.body);
    },
  );

  app.get(
    `${prefix}/:integrationId/`,
    { schema: { ...base, params: ZIntegrationParams, response: { 200: ZIntegration, ...errors } } },
    async (request) =>
      serializeIntegration(
        await findIntegration(app, request.user.id, request.params.integrationId),
        app.config.publicUrl,
      ),
  );

  app.patch(
    `${prefix}/:integrationId/`,
    {
      schema: {
        ...base,
        description:
          'Moves the integration to another application (its threads then start new conversations there) or replaces ' +
          'its bot token or Slack signing secret (checked with the service first).',
        params: ZIntegrationParams,
        body: ZUpdateIntegrationRequest,
        response: { 200: ZIntegration, ...errors, 503: ZErrorBody },
      },
    },
    (request) => updateIntegration(app, request.user.id, request.params.integrationId, request.body),
  );

  app.delete(
    `${prefix}/:integrationId/`,
    {
      schema: {
        ...base,
        description:
          'Disconnects: the inbound URLs stop answering, a Telegram webhook is removed. Conversations stay.',
        params: ZIntegrationParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await deleteIntegration(app, request.user.id, request.params.integrationId);
      return reply.status(204).send(null);
    },
  );
}
