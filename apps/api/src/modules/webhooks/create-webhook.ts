import { randomUUID } from 'node:crypto';
import { type TCreatedWebhook, WEBHOOKS_MAX, type ZCreateWebhookRequest } from '@cairn/contracts/webhooks';
import { webhooks } from '@cairn/db/schema';
import { count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { applicationIdFor, checkWebhookUrl } from './check-webhook-target.ts';
import { quietOwners } from './quiet-owners.ts';
import { serializeWebhook } from './serialize-webhook.ts';
import { newWebhookSecret, secretContext } from './webhook-signing.ts';

/** Creates the owner's webhook; the answer is the only place its secret appears in clear. */
export async function createWebhook(
  app: Ctx,
  ownerId: number,
  input: z.output<typeof ZCreateWebhookRequest>,
): Promise<TCreatedWebhook> {
  checkWebhookUrl(input.url, app.config.allowPrivateUrls);
  const applicationId = await applicationIdFor(app, ownerId, input.application_uuid);
  const [existing] = await app.db.select({ n: count() }).from(webhooks).where(eq(webhooks.ownerId, ownerId));
  if ((existing?.n ?? 0) >= WEBHOOKS_MAX)
    throw new AppError('conflict', `You can have at most ${WEBHOOKS_MAX} webhooks. Delete one first.`);
  const uuid = randomUUID();
  const secret = newWebhookSecret();
  const [row] = await app.db
    .insert(webhooks)
    .values({
      uuid,
      ownerId,
      applicationId,
      url: input.url,
      description: input.description,
      events: input.events,
      secretCiphertext: app.secrets.seal(secret, secretContext(uuid)),
    })
    .returning();
  quietOwners(app.database).changed(ownerId);
  return { ...serializeWebhook(row!, input.application_uuid ?? null), secret };
}
