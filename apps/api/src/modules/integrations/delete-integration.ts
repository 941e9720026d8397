import { integrations } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findIntegration } from './find-integration.ts';
import { openSecret } from './integration-secrets.ts';
import { disconnectTelegram } from './telegram-connect.ts';

/**
 * Deletes the integration: its inbound URLs stop answering at once (404) and a Telegram webhook is
 * removed. Its conversations stay with the application; a poller stops at its next lease renewal.
 */
export async function deleteIntegration(app: Ctx, ownerId: number, uuid: string) {
  const { integration } = await findIntegration(app, ownerId, uuid);
  await app.db.delete(integrations).where(eq(integrations.id, integration.id));
  if (integration.kind === 'telegram' && integration.mode === 'webhook') {
    await disconnectTelegram(
      app,
      uuid,
      openSecret(app.secrets, uuid, 'bot_token', integration.botTokenCiphertext),
    );
  }
}
