import type { TWebhook, TWebhookEventType } from '@cairn/contracts/webhooks';
import { webhookAttempts, webhookDeliveries, webhooks } from '@cairn/db/schema';
import { sql } from 'drizzle-orm';

export type WebhookRow = typeof webhooks.$inferSelect;

/**
 * Why the webhook's last attempt failed (the attempt recorded at `last_delivery_at`), selected
 * beside the webhook so its card can say it; null when that attempt succeeded or none was made.
 */
export const lastFailureReason = sql<string | null>`CASE WHEN ${webhooks.lastDeliveryOk} = false THEN (
  SELECT ${webhookAttempts.error} FROM ${webhookAttempts}
  JOIN ${webhookDeliveries} ON ${webhookDeliveries.id} = ${webhookAttempts.deliveryId}
  WHERE ${webhookDeliveries.webhookId} = ${webhooks.id} AND ${webhookAttempts.startedAt} = ${webhooks.lastDeliveryAt}
  LIMIT 1) END`;

export function serializeWebhook(
  row: WebhookRow,
  applicationUuid: string | null,
  lastFailure: string | null = null,
): TWebhook {
  const rotating = row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date();
  return {
    uuid: row.uuid,
    url: row.url,
    description: row.description,
    events: row.events as TWebhookEventType[],
    application_uuid: applicationUuid,
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : row.disabledReason,
    previous_secret_expires_at: rotating ? row.previousSecretExpiresAt!.toISOString() : null,
    last_delivery: row.lastDeliveryAt
      ? {
          at: row.lastDeliveryAt.toISOString(),
          status: row.lastDeliveryOk ? 'succeeded' : 'failed',
          status_code: row.lastStatusCode,
          error: row.lastDeliveryOk ? null : lastFailure,
        }
      : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
