import {
  type TWebhookAttempt,
  type TWebhookDelivery,
  type TWebhookEventType,
  ZWebhookPayload,
} from '@cairn/contracts/webhooks';
import type { webhookAttempts, webhookDeliveries } from '@cairn/db/schema';
import { messageIdOf } from './deliver-webhook.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export function serializeAttempt(row: AttemptRow): TWebhookAttempt {
  return {
    number: row.number,
    started_at: row.startedAt.toISOString(),
    duration_ms: row.durationMs,
    status_code: row.statusCode,
    ok: row.ok,
    error: row.error,
    response_excerpt: row.responseExcerpt,
  };
}

export function serializeDelivery(row: DeliveryRow, attempts: AttemptRow[]): TWebhookDelivery {
  return {
    uuid: row.uuid,
    message_id: messageIdOf(row.uuid),
    event_type: row.eventType as TWebhookEventType,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    attempt_count: row.attemptCount,
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    // The body was built from the same contract when the event was recorded.
    payload: ZWebhookPayload.parse(JSON.parse(row.body)),
    attempts: attempts.map(serializeAttempt),
  };
}
