import type { TRotatedWebhookSecret } from '@cairn/contracts/webhooks';
import { webhooks } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findWebhook } from './find-webhook.ts';
import { newWebhookSecret, secretContext } from './webhook-signing.ts';

/**
 * A new secret, shown once; the current one keeps signing beside it (a second `v1,` signature)
 * for the rotation window, so receivers can switch without missing a delivery. Rotating again
 * within the window drops the oldest secret.
 */
export async function rotateWebhookSecret(
  app: Ctx,
  ownerId: number,
  uuid: string,
): Promise<TRotatedWebhookSecret> {
  const { webhook } = await findWebhook(app.db, ownerId, uuid);
  const secret = newWebhookSecret();
  const [row] = await app.db
    .update(webhooks)
    .set({
      secretCiphertext: app.secrets.seal(secret, secretContext(webhook.uuid)),
      previousSecretCiphertext: sql`${webhooks.secretCiphertext}`,
      previousSecretExpiresAt: sql`now() + make_interval(secs => ${app.webhooks.settings.rotationWindowMs / 1000})`,
      updatedAt: sql`now()`,
    })
    .where(eq(webhooks.id, webhook.id))
    .returning();
  return { secret, previous_secret_expires_at: row!.previousSecretExpiresAt!.toISOString() };
}
