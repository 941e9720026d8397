import {
  type TIntegration,
  ZSlackBotToken,
  ZTelegramBotToken,
  type ZUpdateIntegrationRequest,
} from '@cairn/contracts/integrations';
import { integrations, integrationThreads } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { ownedApplication } from './create-integration.ts';
import { findIntegration } from './find-integration.ts';
import { openSecret, sealSecret } from './integration-secrets.ts';
import { serializeIntegration } from './serialize-integration.ts';
import { checkSlackToken } from './slack-client.ts';
import { checkTelegramToken } from './telegram-client.ts';
import { connectTelegram, disconnectTelegram } from './telegram-connect.ts';

/**
 * Moves an integration to another application (its threads start new conversations there), or
 * replaces its token or signing secret (checked against the service first, as on creation).
 */
export async function updateIntegration(
  app: Ctx,
  ownerId: number,
  uuid: string,
  input: z.output<typeof ZUpdateIntegrationRequest>,
): Promise<TIntegration> {
  const found = await findIntegration(app, ownerId, uuid);
  const row = found.integration;
  const box = app.secrets;
  const set: Partial<typeof integrations.$inferInsert> = {};
  let application = found.application;
  if (input.application_uuid && input.application_uuid !== application.uuid) {
    const target = await ownedApplication(app, ownerId, input.application_uuid);
    set.applicationId = target.id;
    application = { uuid: target.uuid, name: target.name };
  }
  if (input.signing_secret !== undefined) {
    if (row.kind !== 'slack')
      throw fieldError('signing_secret', 'Only Slack integrations have a signing secret.');
    set.signingSecretCiphertext = sealSecret(box, uuid, 'signing_secret', input.signing_secret);
  }
  if (input.bot_token !== undefined) {
    const format = row.kind === 'slack' ? ZSlackBotToken : ZTelegramBotToken;
    const parsed = format.safeParse(input.bot_token);
    if (!parsed.success)
      throw fieldError('bot_token', parsed.error.issues[0]?.message ?? 'Not a valid token');
    const token = parsed.data;
    if (row.kind === 'slack') {
      Object.assign(set, await checkSlackToken(app.config, token, app.log));
    } else {
      Object.assign(set, await checkTelegramToken(app.config, token));
      const old = openSecret(box, uuid, 'bot_token', row.botTokenCiphertext);
      if (old !== token && row.mode === 'webhook') await disconnectTelegram(app, uuid, old);
      const connection = await connectTelegram(app, uuid, token);
      Object.assign(set, {
        mode: connection.mode,
        modeReason: connection.modeReason,
        signingSecretCiphertext: connection.webhookSecret
          ? sealSecret(box, uuid, 'signing_secret', connection.webhookSecret)
          : null,
        pollOffset: 0,
      });
    }
    set.botTokenCiphertext = sealSecret(box, uuid, 'bot_token', token);
    Object.assign(set, { status: 'connected' as const });
  }
  const [updated] = await app.db.transaction(async (tx) => {
    if (set.applicationId !== undefined)
      await tx.delete(integrationThreads).where(eq(integrationThreads.integrationId, row.id));
    return tx
      .update(integrations)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(integrations.id, row.id))
      .returning();
  });
  if (updated!.mode === 'polling') app.integrations.wakePoller();
  return serializeIntegration({ integration: updated!, application }, app.config.publicUrl);
}
