import type { Db } from '@cairn/db/client';
import { webhooks } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';

/** Deletes the webhook with its deliveries and their log; nothing more is sent to it. */
export async function deleteWebhook(db: Db, ownerId: number, uuid: string): Promise<void> {
  const deleted = await db
    .delete(webhooks)
    .where(and(eq(webhooks.uuid, uuid), eq(webhooks.ownerId, ownerId)))
    .returning({ id: webhooks.id });
  if (!deleted.length) throw notFound('Webhook not found.');
}
