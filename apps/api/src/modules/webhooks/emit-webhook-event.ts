import {
  type TWebhookEventData,
  type TWebhookEventType,
  WEBHOOK_EVENT_DATA,
} from '@cairn/contracts/webhooks';
import type { Db } from '@cairn/db/client';
import { applications, webhookDeliveries, webhooks } from '@cairn/db/schema';
import { and, arrayContains, eq, isNull, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { queueDeliveries } from './queue-deliveries.ts';
import { quietOwners } from './quiet-owners.ts';

export interface WebhookEvent<T extends TWebhookEventType> {
  type: T;
  /** The application the event belongs to; defaults to `data.application_uuid`. */
  applicationUuid?: string;
  data: TWebhookEventData<T>;
}

/**
 * Records the event for every enabled webhook of the owner that subscribed to its type (and to its
 * application, when the webhook is limited to one), and queues the deliveries. Returns how many.
 *
 * Call it after the change is committed. It never throws: an event that cannot be recorded is
 * logged, and the caller's request goes on. With `tx` the deliveries (and their jobs) commit with
 * the caller's transaction instead, and a failure is the caller's to handle.
 */
export async function emitWebhookEvent<T extends TWebhookEventType>(
  app: Ctx,
  ownerId: number,
  event: WebhookEvent<T>,
  options: { tx?: Db } = {},
): Promise<number> {
  const schema = WEBHOOK_EVENT_DATA[event.type];
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) {
    app.log.error(
      { type: event.type, issues: parsed.error.issues },
      'webhook event data does not match its contract',
    );
    return 0;
  }
  const data = parsed.data as { application_uuid?: string };
  const applicationUuid = event.applicationUuid ?? data.application_uuid;
  const quiet = quietOwners(app.database);
  if (quiet.has(ownerId)) return 0;
  const body = JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data });
  const run = async (db: Db) => {
    // Every enabled webhook of the owner, each saying whether it hears this event: none at all is
    // remembered (quiet-owners.ts), and the next events of this owner are told to nobody at once.
    const enabled = await quiet.lookUp(
      ownerId,
      () =>
        db
          .select({
            id: webhooks.id,
            hears: sql<boolean>`${and(
              arrayContains(webhooks.events, [event.type]),
              applicationUuid
                ? or(isNull(webhooks.applicationId), eq(applications.uuid, applicationUuid))
                : isNull(webhooks.applicationId),
            )}`,
          })
          .from(webhooks)
          .leftJoin(applications, eq(applications.id, webhooks.applicationId))
          .where(and(eq(webhooks.ownerId, ownerId), eq(webhooks.enabled, true))),
      (rows) => rows.length === 0,
    );
    const targets = enabled.filter((webhook) => webhook.hears);
    if (targets.length === 0) return 0;
    const rows = await db
      .insert(webhookDeliveries)
      .values(targets.map((t) => ({ webhookId: t.id, eventType: event.type, body })))
      .returning({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt });
    await queueDeliveries(app, rows, options.tx);
    return rows.length;
  };
  if (options.tx) return run(options.tx);
  try {
    return await run(app.db);
  } catch (err) {
    app.log.error({ err, type: event.type }, 'could not record a webhook event');
    return 0;
  }
}
