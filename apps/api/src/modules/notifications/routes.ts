import { ZErrorBody } from '@cairn/contracts/errors';
import {
  ZMarkReadRequest,
  ZMarkReadResponse,
  ZNotificationList,
  ZNotificationProfile,
  ZNotificationProfileInput,
  ZPushConfig,
  ZPushEndpoint,
  ZPushSubscriptionRequest,
  ZSendTestRequest,
  ZSendTestResponse,
} from '@cairn/contracts/notifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listNotifications, markRead } from './list-notifications.ts';
import { getProfile } from './profile.ts';
import { pushConfig, subscribePush, unsubscribePush } from './push-subscriptions.ts';
import { saveProfile } from './save-profile.ts';
import { sendTest } from './send-test.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 404: ZErrorBody };

/** The owner's notification profile and bell (decision 049). */
export default async function notificationRoutes(fastify: FastifyInstance) {
  fastify.addHook('onRequest', fastify.authenticate);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['notifications'], security: [{ token: [] }] };

  app.get(
    '/api/notification-profile/',
    {
      schema: {
        ...base,
        description: 'Which events reach you on which channels; the defaults until you save one.',
        response: { 200: ZNotificationProfile, ...errors },
      },
    },
    (request) => getProfile(app.db, request.user.id),
  );

  app.put(
    '/api/notification-profile/',
    {
      schema: {
        ...base,
        description:
          'Replaces the profile. Each event goes to the channels it lists, and none to nobody. `in_app` lists it in ' +
          'the bell (`GET /api/notifications/`); `email` is sent after ' +
          '`email_delay_minutes` (skipped if you opened the conversation meanwhile); `push` goes at once to ' +
          'the browsers you subscribed (Web Push); `slack` posts to `slack.channel` through ' +
          '`slack.integration_uuid` (one of your Slack integrations; the bot must be in the channel), at once. ' +
          'Quiet hours hold e-mails and pushes until they end in `time_zone` (start > end spans midnight), ' +
          'except a handoff when `urgent_handoff`; Slack is not held.',
        body: ZNotificationProfileInput,
        response: { 200: ZNotificationProfile, ...errors },
      },
    },
    (request) => saveProfile(app, request.user.id, request.body),
  );

  app.get(
    '/api/notifications/',
    {
      schema: {
        ...base,
        description:
          'The latest notifications of the events your profile shows in the app (`in_app`), newest first, and ' +
          'how many are unread. New ones arrive as `notification` events on `/api/ws`.',
        response: { 200: ZNotificationList, ...errors },
      },
    },
    (request) => listNotifications(app, request.user.id),
  );

  app.post(
    '/api/notifications/read/',
    {
      schema: {
        ...base,
        description: 'Marks the given notifications (`uuids`) or every one (`all: true`) as read.',
        body: ZMarkReadRequest,
        response: { 200: ZMarkReadResponse, ...errors },
      },
    },
    (request) => markRead(app, request.user.id, request.body),
  );

  app.post(
    '/api/notifications/test/',
    {
      schema: {
        ...base,
        description: 'Sends a test notification on one channel now (no delay, no quiet hours).',
        body: ZSendTestRequest,
        response: { 200: ZSendTestResponse, ...errors },
      },
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    (request) => sendTest(app, request.user, request.body.channel),
  );

  app.get(
    '/api/notifications/push/',
    {
      schema: {
        ...base,
        description:
          'The VAPID public key to subscribe a browser with, and how many browsers are subscribed.',
        response: { 200: ZPushConfig, ...errors },
      },
    },
    (request) => pushConfig(app, request.user.id),
  );

  app.post(
    '/api/notifications/push/subscriptions/',
    {
      schema: {
        ...base,
        description:
          "Saves this browser's push subscription (`PushSubscription.toJSON()`). Events set to `push` are then " +
          'sent to it (encrypted, VAPID-signed), held through quiet hours.',
        body: ZPushSubscriptionRequest,
        response: { 201: ZPushConfig, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return subscribePush(app, request.user.id, request.body);
    },
  );

  app.post(
    '/api/notifications/push/subscriptions/remove/',
    {
      schema: {
        ...base,
        description: "Forgets this browser's push subscription.",
        body: ZPushEndpoint,
        response: { 200: ZPushConfig, ...errors },
      },
    },
    (request) => unsubscribePush(app, request.user.id, request.body.endpoint),
  );
}
