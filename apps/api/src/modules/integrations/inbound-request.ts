import { ZIntegrationParams } from '@cairn/contracts/integrations';
import type { FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { SecretBoxError } from '../../lib/secret-box.ts';
import { findInboundIntegration, type IntegrationRow } from './find-integration.ts';
import { openSecret } from './integration-secrets.ts';
import { markIntegration } from './send-reply.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The integration an inbound request (Slack, Telegram) was authenticated for. */
    integration: IntegrationRow | null;
  }
}

/**
 * The integration an inbound URL names. Runs before schema validation (the signature must be
 * checked first), so the id is checked here: a malformed one names nothing (404).
 */
export async function inboundIntegration(
  app: Ctx,
  request: FastifyRequest,
  kind: 'slack' | 'telegram',
): Promise<IntegrationRow> {
  const params = ZIntegrationParams.safeParse(request.params);
  const row = params.success ? await findInboundIntegration(app, params.data.integrationId, kind) : undefined;
  if (!row) throw notFound('Integration not found.');
  return row;
}

export const unauthorized = (detail: string) => new AppError('unauthorized', detail);

/**
 * The secret an inbound request must prove it knows (Slack's signing secret, Telegram's secret
 * token), or null when there is none or it cannot be decrypted (SECRET_KEY changed): the request is
 * then refused, and the owner sees why on the integration.
 */
export async function inboundSecret(app: Ctx, integration: IntegrationRow): Promise<string | null> {
  const sealed = integration.signingSecretCiphertext;
  if (!sealed) return null;
  try {
    return openSecret(app.secrets, integration.uuid, 'signing_secret', sealed);
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    await markIntegration(
      app,
      integration.id,
      'Cairn cannot decrypt this integration’s secrets (was SECRET_KEY changed?): connect it again.',
    );
    return null;
  }
}
