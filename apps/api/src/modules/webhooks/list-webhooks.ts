import type { TWebhook } from '@cairn/contracts/webhooks';
import { applications, webhooks } from '@cairn/db/schema';
import { desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { lastFailureReason, serializeWebhook } from './serialize-webhook.ts';

/** The owner's webhooks, newest first. */
export async function listWebhooks({ db }: Pick<Ctx, 'db'>, ownerId: number): Promise<TWebhook[]> {
  const rows = await db
    .select({ webhook: webhooks, applicationUuid: applications.uuid, lastFailure: lastFailureReason })
    .from(webhooks)
    .leftJoin(applications, eq(applications.id, webhooks.applicationId))
    .where(eq(webhooks.ownerId, ownerId))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
  return rows.map((r) => serializeWebhook(r.webhook, r.applicationUuid, r.lastFailure));
}
