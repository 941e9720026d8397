import type { TWebhook, ZUpdateWebhookRequest } from '@cairn/contracts/webhooks';
import { webhooks } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Ctx } from '../../lib/ctx.ts';
import { applicationIdFor, checkWebhookUrl } from './check-webhook-target.ts';
import { disableWebhook } from './deliver-webhook.ts';
import { findWebhook } from './find-webhook.ts';
import { quietOwners } from './quiet-owners.ts';
import { serializeWebhook } from './serialize-webhook.ts';

export const PAUSED_REASON = 'Paused by you.';

/**
 * Changes what was given. `enabled: true` turns a disabled webhook back on with a clean slate (its
 * five-day failure clock starts again); `enabled: false` pauses it, failing what it still had to send.
 */
export async function updateWebhook(
  app: Ctx,
  ownerId: number,
  uuid: string,
  input: z.output<typeof ZUpdateWebhookRequest>,
): Promise<TWebhook> {
  const { webhook } = await findWebhook(app.db, ownerId, uuid);
  if (input.url !== undefined) checkWebhookUrl(input.url, app.config.allowPrivateUrls);
  const changes: Partial<typeof webhooks.$inferInsert> = {};
  if (input.url !== undefined) changes.url = input.url;
  if (input.events !== undefined) changes.events = input.events;
  if (input.description !== undefined) changes.description = input.description;
  if (input.application_uuid !== undefined)
    changes.applicationId = await applicationIdFor(app, ownerId, input.application_uuid);
  if (input.enabled === true && !webhook.enabled)
    Object.assign(changes, { enabled: true, disabledReason: null, failingSince: null });
  await app.db.transaction(async (tx) => {
    await tx
      .update(webhooks)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(webhooks.id, webhook.id));
    if (input.enabled === false) await disableWebhook(tx, webhook.id, PAUSED_REASON);
  });
  // Its events, its application or its switch may make it hear what the owner's events told nobody.
  quietOwners(app.database).changed(ownerId);
  const updated = await findWebhook(app.db, ownerId, uuid);
  return serializeWebhook(updated.webhook, updated.applicationUuid, updated.lastFailure);
}
