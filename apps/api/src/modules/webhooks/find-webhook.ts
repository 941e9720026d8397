import type { Db } from '@cairn/db/client';
import { applications, webhooks } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import { lastFailureReason } from './serialize-webhook.ts';

/** The caller's webhook, its application's uuid and why its last attempt failed, or a 404 whether it is absent or someone else's. */
export async function findWebhook(db: Db, ownerId: number, uuid: string) {
  const [row] = await db
    .select({ webhook: webhooks, applicationUuid: applications.uuid, lastFailure: lastFailureReason })
    .from(webhooks)
    .leftJoin(applications, eq(applications.id, webhooks.applicationId))
    .where(and(eq(webhooks.uuid, uuid), eq(webhooks.ownerId, ownerId)));
  if (!row) throw notFound('Webhook not found.');
  return row;
}
