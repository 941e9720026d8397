import { createHash, timingSafeEqual } from 'node:crypto';
import { ZErrorBody } from '@cairn/contracts/errors';
import { ZIntegrationParams, ZTelegramUpdate } from '@cairn/contracts/integrations';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inboundIntegration, inboundSecret, unauthorized } from './inbound-request.ts';
import { takeTelegramUpdate } from './telegram-update.ts';

/** Compares in constant time; hashing first makes the lengths equal without telling the secret's. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The Telegram webhook: updates Telegram pushes, authenticated by the secret token set with the webhook. */
export default async function telegramRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/integrations/telegram/:integrationId/updates/',
    {
      schema: {
        tags: ['integrations (inbound)'],
        security: [],
        summary: 'Telegram updates (from Telegram)',
        description:
          'Where Telegram pushes the bot’s updates when the integration is in `webhook` mode. Every request must carry ' +
          '`X-Telegram-Bot-Api-Secret-Token` with the secret Cairn registered by `setWebhook` (401 otherwise). ' +
          '`/start` gets the application’s greeting; other text is answered in the background, with its sources.',
        params: ZIntegrationParams,
        body: ZTelegramUpdate,
        response: {
          200: z.object({ ok: z.literal(true) }),
          400: ZErrorBody,
          401: ZErrorBody,
          404: ZErrorBody,
        },
      },
      // Before the body is validated: an unauthenticated request learns nothing about what it sent.
      preValidation: async (request) => {
        const integration = await inboundIntegration(app, request, 'telegram');
        const header = request.headers['x-telegram-bot-api-secret-token'];
        const expected = integration.mode === 'webhook' ? await inboundSecret(app, integration) : null;
        if (typeof header !== 'string' || expected === null || !sameSecret(header, expected))
          throw unauthorized('The secret token is missing or wrong.');
        request.integration = integration;
      },
    },
    async (request) => {
      await takeTelegramUpdate(app, request.integration!, request.body);
      return { ok: true as const };
    },
  );
}
