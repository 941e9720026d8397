import type { TWebhook, TWebhookEventType } from '@cairn/contracts/webhooks';
import type { webhooks } from '@cairn/db/schema';

export type WebhookRow = typeof webhooks.$inferSelect;

export function serializeWebhook(row: WebhookRow, applicationUuid: string | null): TWebhook {
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
        }
      : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
