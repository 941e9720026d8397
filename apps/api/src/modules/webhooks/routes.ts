import { ZErrorBody } from '@cairn/contracts/errors';
import {
  WEBHOOK_ROTATION_HOURS,
  ZCreatedWebhook,
  ZCreateWebhookRequest,
  ZRotatedWebhookSecret,
  ZUpdateWebhookRequest,
  ZWebhook,
  ZWebhookDeliveriesQuery,
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookDeliveryParams,
  ZWebhookList,
  ZWebhookParams,
} from '@cairn/contracts/webhooks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { findWebhook } from './find-webhook.ts';
import { listDeliveries } from './list-deliveries.ts';
import { listWebhooks } from './list-webhooks.ts';
import { retryDelivery } from './retry-delivery.ts';
import { rotateWebhookSecret } from './rotate-webhook-secret.ts';
import { sendTestPing } from './send-test-ping.ts';
import { serializeWebhook } from './serialize-webhook.ts';
import { updateWebhook } from './update-webhook.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };
const prefix = '/api/webhooks';

const SIGNING =
  'Every delivery is a POST of `{type, timestamp, data}` (see `payload` in the delivery log for each ' +
  'event’s `data`), signed per the Standard Webhooks specification: `webhook-id` (the same on every ' +
  'retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` = `v1,<base64 HMAC-SHA256 of ' +
  '"{id}.{timestamp}.{body}">`, keyed with the base64-decoded part of the secret after `whsec_`. Any ' +
  'Standard Webhooks library verifies it. A 2xx answer within 15 s is a success; redirects are not ' +
  'followed; failures are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (with ' +
  'jitter, never before a `Retry-After` on 429/503); 410 Gone disables the webhook, and so do five ' +
  'days of failures (the owner is e-mailed).';

/** The owner's outbound webhooks (decision 046). */
export default async function webhookRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['webhooks'], security: [{ token: [] }] };

  app.get(`${prefix}/`, { schema: { ...base, response: { 200: ZWebhookList, ...errors } } }, (request) =>
    listWebhooks(app, request.user.id),
  );

  app.post(
    `${prefix}/`,
    {
      schema: {
        ...base,
        description: `Creates a webhook. The answer holds \`secret\`: it is shown only this once. ${SIGNING}`,
        body: ZCreateWebhookRequest,
        response: { 201: ZCreatedWebhook, ...errors, 409: ZErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return createWebhook(app, request.user.id, request.body);
    },
  );

  app.get(
    `${prefix}/:webhookId/`,
    { schema: { ...base, params: ZWebhookParams, response: { 200: ZWebhook, ...errors } } },
    async (request) => {
      const { webhook, applicationUuid, lastFailure } = await findWebhook(
        app.db,
        request.user.id,
        request.params.webhookId,
      );
      return serializeWebhook(webhook, applicationUuid, lastFailure);
    },
  );

  app.patch(
    `${prefix}/:webhookId/`,
    {
      schema: {
        ...base,
        description:
          'Changes the given fields. `enabled: true` turns a disabled webhook back on; `enabled: false` pauses it.',
        params: ZWebhookParams,
        body: ZUpdateWebhookRequest,
        response: { 200: ZWebhook, ...errors },
      },
    },
    (request) => updateWebhook(app, request.user.id, request.params.webhookId, request.body),
  );

  app.delete(
    `${prefix}/:webhookId/`,
    {
      schema: {
        ...base,
        description: 'Deletes the webhook and its delivery log; nothing more is sent.',
        params: ZWebhookParams,
        response: { 204: z.null().describe('Deleted'), ...errors },
      },
    },
    async (request, reply) => {
      await deleteWebhook(app.db, request.user.id, request.params.webhookId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${prefix}/:webhookId/test/`,
    {
      schema: {
        ...base,
        description: 'Sends a `webhook.ping` to this webhook now; the answer is the queued delivery.',
        params: ZWebhookParams,
        response: { 202: ZWebhookDelivery, ...errors, 409: ZErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return sendTestPing(app, request.user.id, request.params.webhookId);
    },
  );

  app.post(
    `${prefix}/:webhookId/rotate-secret/`,
    {
      schema: {
        ...base,
        description:
          `A new secret, shown only this once. The previous one keeps signing beside it for ${WEBHOOK_ROTATION_HOURS} ` +
          'hours: `webhook-signature` then carries two space-separated `v1,` signatures.',
        params: ZWebhookParams,
        response: { 200: ZRotatedWebhookSecret, ...errors },
      },
    },
    (request) => rotateWebhookSecret(app, request.user.id, request.params.webhookId),
  );

  app.get(
    `${prefix}/:webhookId/deliveries/`,
    {
      schema: {
        ...base,
        description:
          'The delivery log, newest first: each delivery’s event, body, state and next attempt, and every ' +
          'attempt’s time, duration, status code and the first KB of the answer.',
        params: ZWebhookParams,
        querystring: ZWebhookDeliveriesQuery,
        response: { 200: ZWebhookDeliveryList, ...errors },
      },
    },
    (request) => listDeliveries(app, request.user.id, request.params.webhookId, request.query),
  );

  app.post(
    `${prefix}/:webhookId/deliveries/:deliveryId/retry/`,
    {
      schema: {
        ...base,
        description: 'Sends the delivery again now, with the same `webhook-id` and body.',
        params: ZWebhookDeliveryParams,
        response: { 202: ZWebhookDelivery, ...errors, 409: ZErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return retryDelivery(app, request.user.id, request.params.webhookId, request.params.deliveryId);
    },
  );
}
