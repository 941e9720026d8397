import { webhooks } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { ProductEvents } from '../../lib/product-events.ts';
import { serializeChatroom, serializeMessage } from '../chatrooms/serialize-chat.ts';
import { serializeItem } from '../knowledge/serialize-item.ts';
import { emitWebhookEvent } from './emit-webhook-event.ts';
import { quietOwners } from './quiet-owners.ts';

/**
 * The webhooks' subscriber (decision 046, 076): the product events the owner's webhooks hear of,
 * each payload built from the serializers the API answers with, so it equals what the API returns.
 * Like `emitWebhookEvent`, none of them throws.
 */
export function subscribeWebhooks(app: Ctx) {
  app.events.onDurable('conversation.created', async ({ application, chatroom }) => {
    await emitWebhookEvent(app, application.ownerId, {
      type: 'conversation.created',
      data: { application_uuid: application.uuid, chatroom: serializeChatroom(chatroom) },
    });
  });
  app.events.onDurable('message.created', async ({ application, chatroom, message }) => {
    await emitWebhookEvent(app, application.ownerId, {
      type: 'message.created',
      data: {
        application_uuid: application.uuid,
        chatroom_uuid: chatroom.uuid,
        source: chatroom.source,
        message: serializeMessage(message),
      },
    });
  });
  // `feedback.created`: an answer was rated anew (a rating cleared or set again is no event).
  app.events.onDurable('message.rated', async ({ application, chatroom, message, previous }) => {
    if (message.feedback === null || message.feedback === previous) return;
    await emitWebhookEvent(app, application.ownerId, {
      type: 'feedback.created',
      data: {
        application_uuid: application.uuid,
        chatroom_uuid: chatroom.uuid,
        feedback: message.feedback,
        message: serializeMessage(message),
      },
    });
  });
  app.events.onDurable('handoff.requested', async ({ application, chatroom }) => {
    await emitWebhookEvent(app, application.ownerId, {
      type: 'handoff.requested',
      data: {
        application_uuid: application.uuid,
        chatroom: serializeChatroom(chatroom),
        visitor_uuid: chatroom.visitorUuid,
      },
    });
  });
  app.events.onDurable('knowledge.items.ended', (event) => knowledgeItemsEnded(app, event));
}

/**
 * `knowledge.item.ready` or `knowledge.item.failed` for each item. When the owner has no enabled
 * webhook at all (one query for a batch; none once that is known, quiet-owners.ts), nobody listens,
 * and the lookup of matching webhooks per item (a statement of ~0.35 ms on PGlite, 1.8 s of SQL for
 * SciFact's 5,183 abstracts) is skipped. Decision 044.
 */
async function knowledgeItemsEnded(
  app: Ctx,
  { owner, items }: ProductEvents['knowledge.items.ended'],
): Promise<void> {
  const quiet = quietOwners(app.database);
  if (quiet.has(owner.ownerId)) return;
  try {
    const [webhook] = await quiet.lookUp(
      owner.ownerId,
      () =>
        app.db
          .select({ id: webhooks.id })
          .from(webhooks)
          .where(and(eq(webhooks.ownerId, owner.ownerId), eq(webhooks.enabled, true)))
          .limit(1),
      (rows) => rows.length === 0,
    );
    if (!webhook) return;
  } catch (err) {
    app.log.warn({ err }, 'looking up webhooks failed; telling each item to them');
  }
  for (const row of items) {
    if (row.status !== 'ready' && row.status !== 'failed') continue;
    await emitWebhookEvent(app, owner.ownerId, {
      type: row.status === 'ready' ? 'knowledge.item.ready' : 'knowledge.item.failed',
      data: { application_uuid: owner.applicationUuid, item: serializeItem(row) },
    });
  }
}
