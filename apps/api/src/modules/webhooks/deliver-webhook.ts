import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Db } from '@cairn/db/client';
import { webhookAttempts, webhookDeliveries, webhooks } from '@cairn/db/schema';
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { ProductEvents } from '../../lib/product-events.ts';
import { nextDelayMs, parseRetryAfter } from './delivery-settings.ts';
import { DeliveryError, type PostResult, postWebhook } from './post-webhook.ts';
import { queueDeliveries } from './queue-deliveries.ts';
import { secretContext, signatureHeader } from './webhook-signing.ts';

type WebhookRow = typeof webhooks.$inferSelect;

/** The `webhook-id` of a delivery: the same on every attempt, so receivers can drop duplicates. */
export const messageIdOf = (deliveryUuid: string) => `msg_${deliveryUuid.replaceAll('-', '')}`;

/** Disabled by Cairn, with the reason the owner reads. */
export const GONE_REASON = 'The receiver answered 410 Gone: it says this endpoint no longer exists.';
export const failingReason = (days: number) =>
  `Every delivery failed for ${days} day${days === 1 ? '' : 's'}: fix the receiver, then enable the webhook again.`;

/**
 * One attempt of a delivery, if it is due and nobody else is sending it: claim the row under a
 * fresh lease, sign, POST through the SSRF guard, record the attempt, and decide the next state:
 * 2xx succeeded; 410 disables the webhook; anything else (3xx included: redirects are never
 * followed) is retried on the schedule, not before a `Retry-After` on 429/503, until the schedule
 * is spent. Every write after the claim is conditional on the lease.
 */
export async function deliverWebhook(app: Ctx, deliveryId: number): Promise<void> {
  const { settings } = app.webhooks;
  const lease = randomUUID();
  const lockSeconds = Math.ceil(settings.timeoutMs / 1000) + 30;
  const [delivery] = await app.db
    .update(webhookDeliveries)
    .set({ lease, lockedUntil: sql`now() + make_interval(secs => ${lockSeconds})`, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, sql`now() + interval '1 second'`),
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, sql`now()`)),
      ),
    )
    .returning();
  if (!delivery) return;
  const [webhook] = await app.db.select().from(webhooks).where(eq(webhooks.id, delivery.webhookId));
  if (!webhook?.enabled) {
    await app.db
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, lease: null, lockedUntil: null, updatedAt: sql`now()` })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.lease, lease)));
    return;
  }

  const startedAt = app.webhooks.clock();
  // The attempt's duration is real time, whatever the clock says.
  const startedMs = Date.now();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const msgId = messageIdOf(delivery.uuid);
  let result: PostResult | null = null;
  let error: string | null = null;
  try {
    result = await postWebhook(webhook.url, delivery.body, {
      headers: {
        'webhook-id': msgId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(
          msgId,
          timestamp,
          delivery.body,
          secretsOf(app, webhook, startedAt),
        ),
      },
      timeoutMs: settings.timeoutMs,
      allowLoopback: app.config.allowPrivateUrls,
      userAgent: `CairnWebhooks/1.0 (+${app.config.publicUrl})`,
    });
  } catch (err) {
    if (err instanceof DeliveryError) error = err.message;
    else {
      app.log.error({ err, deliveryId }, 'webhook attempt failed unexpectedly');
      error = 'The attempt failed inside Cairn.';
    }
  }
  const durationMs = Date.now() - startedMs;
  const status = result?.statusCode ?? null;
  const ok = status !== null && status >= 200 && status < 300;
  const gone = status === 410;
  if (status !== null && !ok) error = describeStatus(status);

  const attemptNumber = delivery.attemptCount + 1;
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(result?.retryAfter) : null;
  const delay = ok || gone ? null : nextDelayMs(settings, attemptNumber, retryAfterMs);

  const outcome = await app.events.transaction(async (tx, emit) => {
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        status: ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
        attemptCount: attemptNumber,
        nextAttemptAt: delay === null ? null : sql`now() + make_interval(secs => ${delay / 1000})`,
        lease: null,
        lockedUntil: null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.lease, lease)))
      .returning();
    // The lease ran out and another worker took over: its attempt is the one that counts.
    if (!updated) return null;
    await tx.insert(webhookAttempts).values({
      deliveryId: delivery.id,
      number: attemptNumber,
      startedAt,
      durationMs,
      statusCode: status,
      ok,
      error: ok ? null : error,
      responseExcerpt: result ? result.excerpt : null,
    });
    const { failingSince } = await recordOutcome(tx, webhook.id, startedAt, ok, status);
    const failingTooLong =
      !ok &&
      failingSince !== null &&
      app.webhooks.clock().getTime() - failingSince.getTime() >= settings.disableAfterFailingMs;
    const disableReason = gone
      ? GONE_REASON
      : failingTooLong
        ? failingReason(Math.round(settings.disableAfterFailingMs / 86_400_000))
        : null;
    // Disabling fails this delivery too, whatever its schedule said; the reason is kept when this
    // call is the one that disabled the webhook (the owner is told once).
    if (disableReason && (await disableWebhook(tx, webhook.id, disableReason)))
      emit('integration.failed', disabledNotice(webhook, disableReason));
    return { retry: !disableReason && updated.status === 'pending' ? updated : null };
  });
  if (outcome?.retry) await queueDeliveries(app, [outcome.retry]);
}

/**
 * Records an attempt on its webhook in one statement, so attempts that finish together (a worker
 * keeps many in flight) cannot undo each other from stale reads. The last delivery only moves
 * forward in time. `failing_since` never moves earlier than the truth (which could disable a
 * webhook early): a success clears it, unless a later attempt, recorded already, failed (then the
 * failing streak started after this success: kept if it did, else the start of that later
 * failure); a failure starts a streak unless one is running or a later success was recorded
 * already. Returns the failing start it leaves.
 */
export async function recordOutcome(
  tx: Db,
  webhookId: number,
  startedAt: Date,
  ok: boolean,
  statusCode: number | null,
): Promise<{ failingSince: Date | null }> {
  const at = sql`${startedAt.toISOString()}::timestamptz`;
  const last = webhooks.lastDeliveryAt;
  const newest = sql`(${last} IS NULL OR ${last} <= ${at})`;
  const [row] = await tx
    .update(webhooks)
    .set({
      lastDeliveryAt: sql`CASE WHEN ${newest} THEN ${at} ELSE ${last} END`,
      lastDeliveryOk: sql`CASE WHEN ${newest} THEN ${ok}::boolean ELSE ${webhooks.lastDeliveryOk} END`,
      lastStatusCode: sql`CASE WHEN ${newest} THEN ${statusCode}::integer ELSE ${webhooks.lastStatusCode} END`,
      failingSince: ok
        ? sql`CASE WHEN ${newest} OR ${webhooks.lastDeliveryOk} THEN NULL
                   WHEN ${webhooks.failingSince} > ${at} THEN ${webhooks.failingSince}
                   ELSE ${last} END`
        : sql`CASE WHEN ${webhooks.lastDeliveryOk} AND NOT ${newest} THEN ${webhooks.failingSince}
                   ELSE COALESCE(${webhooks.failingSince}, ${at}) END`,
      updatedAt: sql`now()`,
    })
    .where(eq(webhooks.id, webhookId))
    .returning({ failingSince: webhooks.failingSince });
  return { failingSince: row?.failingSince ?? null };
}

/** Turns the webhook off and fails what it still had to send; true when this call disabled it. */
export async function disableWebhook(tx: Db, webhookId: number, reason: string): Promise<boolean> {
  const rows = await tx
    .update(webhooks)
    .set({ enabled: false, disabledReason: reason, updatedAt: sql`now()` })
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.enabled, true)))
    .returning({ id: webhooks.id });
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.status, 'pending'),
        isNull(webhookDeliveries.lease),
      ),
    );
  return rows.length > 0;
}

/** The current secret, and the previous one while its rotation window lasts. */
function secretsOf(app: Ctx, webhook: WebhookRow, now: Date): string[] {
  const context = secretContext(webhook.uuid);
  const secrets = [app.secrets.open(webhook.secretCiphertext, context)];
  if (
    webhook.previousSecretCiphertext &&
    webhook.previousSecretExpiresAt &&
    webhook.previousSecretExpiresAt > now
  )
    secrets.push(app.secrets.open(webhook.previousSecretCiphertext, context));
  return secrets;
}

function describeStatus(status: number): string {
  const text = http.STATUS_CODES[status] ?? 'Unknown';
  if (status >= 300 && status < 400)
    return `HTTP ${status} ${text}: redirects are not followed; give the receiver's final address.`;
  if (status === 410) return `HTTP 410 ${text}: the webhook was disabled.`;
  return `HTTP ${status} ${text}`;
}

/** What the owner is told (the notifications subscribe: the bell, and e-mail, push or Slack as the profile asks). */
function disabledNotice(webhook: WebhookRow, reason: string): ProductEvents['integration.failed'] {
  return {
    ownerId: webhook.ownerId,
    title: 'A webhook was disabled',
    reason: [
      `Cairn stopped sending events to ${webhook.url}.`,
      reason,
      'Events that happen while it is disabled are not sent. When the receiver works again, enable the webhook in your integration settings; you can resend failed deliveries from its delivery log.',
    ].join('\n\n'),
  };
}
