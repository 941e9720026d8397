import { randomUUID } from 'node:crypto';
import { MESSAGE_MAX } from '@cairn/contracts/chat';
import { ZErrorBody } from '@cairn/contracts/errors';
import {
  type TSlackEventEnvelope,
  ZIntegrationParams,
  ZSlackEventEnvelope,
} from '@cairn/contracts/integrations';
import { asFreeText } from '@cairn/contracts/text';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { acceptEvent } from './accept-event.ts';
import type { IntegrationRow } from './find-integration.ts';
import { inboundIntegration, inboundSecret, unauthorized } from './inbound-request.ts';
import type { ReplyJob } from './reply-job.ts';
import { recordSlackFeedback } from './slack-feedback.ts';
import { verifySlackSignature } from './slack-signature.ts';

const errors = { 400: ZErrorBody, 401: ZErrorBody, 404: ZErrorBody, 413: ZErrorBody, 415: ZErrorBody };
const BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received: Slack signs these bytes. */
    rawBody: string | undefined;
  }
}

/** The question in a Slack message: its text without the bot's own mention, control characters removed. */
function questionOf(text: string, botUserId: string): string {
  return asFreeText(text.replaceAll(`<@${botUserId}>`, ''))
    .trim()
    .slice(0, MESSAGE_MAX);
}

/** The reply an event asks for: a mention of the bot, or a person's direct message; null for anything else. */
export function slackReplyJob(integration: IntegrationRow, envelope: TSlackEventEnvelope): ReplyJob | null {
  const event = envelope.event;
  if (!event?.channel || !event.ts || !event.user || event.bot_id || event.user === integration.botUserId)
    return null;
  const mention = event.type === 'app_mention';
  const direct = event.type === 'message' && event.channel_type === 'im' && !event.subtype;
  if (!mention && !direct) return null;
  const question = questionOf(event.text ?? '', integration.botUserId);
  if (!question) return null;
  // Always in a thread: the one the message is in, or the one it starts.
  const threadTs = event.thread_ts ?? event.ts;
  return {
    integrationId: integration.id,
    type: 'question',
    threadKey: `${event.channel}:${threadTs}`,
    question,
    answerUuid: randomUUID(),
    target: { kind: 'slack', channel: event.channel, threadTs, user: event.user },
  };
}

/**
 * Slack's inbound requests (decision 047): the events URL and the interactivity URL. Both are
 * authenticated by Slack's `v0` signature over the raw body, checked before anything in the body
 * is read; so this plugin keeps bodies as strings (its own content-type parsers) and parses them
 * only once the signature holds.
 */
export default async function slackRoutes(fastify: FastifyInstance) {
  fastify.decorateRequest('rawBody', undefined);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    ['application/json', 'application/x-www-form-urlencoded'],
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (request, body, done) => {
      request.rawBody = body as string;
      done(null, body);
    },
  );
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['integrations (inbound)'], security: [] };

  /** Checks the signature of the request, then hands on the parsed body. */
  async function verified(request: FastifyRequest) {
    const integration = await inboundIntegration(app, request, 'slack');
    const secret = await inboundSecret(app, integration);
    if (secret === null) throw unauthorized('This integration cannot verify requests.');
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const check = verifySlackSignature(
      secret,
      { timestamp: header('x-slack-request-timestamp'), signature: header('x-slack-signature') },
      request.rawBody ?? '',
    );
    if (!check.ok) throw unauthorized(check.reason);
    request.integration = integration;
  }

  app.post(
    '/api/integrations/slack/:integrationId/events/',
    {
      schema: {
        ...base,
        summary: 'Slack events (signed by Slack)',
        description:
          'The Request URL of the Slack app’s Event Subscriptions. Every request must carry Slack’s `v0` signature ' +
          '(`X-Slack-Signature`: HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{body}` with the signing secret; ' +
          'at most five minutes old). `url_verification` is answered with its challenge; `app_mention` and direct ' +
          'messages are acknowledged at once and answered in their thread in the background; a retry ' +
          '(`X-Slack-Retry-Num`) of an event already taken is acknowledged and dropped.',
        params: ZIntegrationParams,
        body: ZSlackEventEnvelope,
        response: {
          200: z.union([z.object({ challenge: z.string() }), z.object({ ok: z.literal(true) })]),
          ...errors,
        },
      },
      preValidation: async (request) => {
        await verified(request);
        try {
          request.body = JSON.parse(request.rawBody ?? '');
        } catch {
          throw new AppError('invalid', 'Malformed JSON in request body.');
        }
      },
    },
    async (request) => {
      const envelope = request.body;
      const integration = request.integration!;
      if (envelope.type === 'url_verification') return { challenge: envelope.challenge ?? '' };
      if (envelope.type !== 'event_callback' || !envelope.event_id) return { ok: true as const };
      await acceptEvent(app, integration.id, envelope.event_id, slackReplyJob(integration, envelope));
      return { ok: true as const };
    },
  );

  app.post(
    '/api/integrations/slack/:integrationId/interactions/',
    {
      schema: {
        ...base,
        summary: 'Slack interactivity (signed by Slack)',
        description:
          'The Request URL of the Slack app’s Interactivity: the 👍/👎 buttons under each answer. Signed as the events ' +
          'are; the body is form-encoded with a JSON `payload`. A click records the feedback on the answer, as in the chat.',
        consumes: ['application/x-www-form-urlencoded'],
        params: ZIntegrationParams,
        body: z.object({ payload: z.string() }),
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
      preValidation: async (request) => {
        await verified(request);
        const payload = new URLSearchParams(request.rawBody ?? '').get('payload');
        if (payload === null) throw new AppError('invalid', 'The form field `payload` is missing.');
        request.body = { payload };
      },
    },
    async (request) => {
      await recordSlackFeedback(app, request.integration!, request.body.payload);
      return { ok: true as const };
    },
  );
}
