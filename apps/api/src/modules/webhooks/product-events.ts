import type { FastifyInstance } from 'fastify';
import { countConversation, countHandoffRequested, countMessage } from '../analytics/record-analytics.ts';
import {
  type ChatroomRow,
  type MessageRow,
  serializeChatroom,
  serializeMessage,
} from '../chatrooms/serialize-chat.ts';
import { type KnowledgeItemRow, serializeItem } from '../knowledge/serialize-item.ts';
import {
  notifyConversationStarted,
  notifyFeedback,
  notifyHandoff,
  notifyKnowledgeFailed,
  notifyMessage,
} from '../notifications/product-notifications.ts';
import { emitWebhookEvent } from './emit-webhook-event.ts';

/**
 * The product's webhook events (decision 046), each built from the serializers the API answers
 * with, so a payload equals what the API returns. Called after the change is committed; like
 * `emitWebhookEvent`, none of them throws.
 */
type ApplicationRef = { uuid: string; ownerId: number };
interface Where {
  application: ApplicationRef;
  chatroom: ChatroomRow;
}

/** `conversation.created`: a new chatroom, whatever its source. */
export async function emitConversationCreated(app: FastifyInstance, { application, chatroom }: Where) {
  await notifyConversationStarted(app, { application, chatroom });
  await countConversation(app, { application, chatroom });
  return emitWebhookEvent(app, application.ownerId, {
    type: 'conversation.created',
    data: { application_uuid: application.uuid, chatroom: serializeChatroom(chatroom) },
  });
}

/** `message.created`: a user, visitor or owner message, or an answer that reached its final status. */
export async function emitMessageCreated(
  app: FastifyInstance,
  { application, chatroom }: Where,
  row: MessageRow,
) {
  await notifyMessage(app, { application, chatroom }, row);
  await countMessage(app, { application, chatroom }, row);
  return emitWebhookEvent(app, application.ownerId, {
    type: 'message.created',
    data: {
      application_uuid: application.uuid,
      chatroom_uuid: chatroom.uuid,
      source: chatroom.source,
      message: serializeMessage(row),
    },
  });
}

/** `feedback.created`: an answer was rated (a rating cleared is no event). */
export async function emitFeedbackCreated(
  app: FastifyInstance,
  { application, chatroom }: Where,
  row: MessageRow,
) {
  if (row.feedback === null) return 0;
  await notifyFeedback(app, { application, chatroom }, row);
  return emitWebhookEvent(app, application.ownerId, {
    type: 'feedback.created',
    data: {
      application_uuid: application.uuid,
      chatroom_uuid: chatroom.uuid,
      feedback: row.feedback,
      message: serializeMessage(row),
    },
  });
}

/** `handoff.requested`: a widget visitor asked for a person. */
export async function emitHandoffRequested(app: FastifyInstance, { application, chatroom }: Where) {
  await notifyHandoff(app, { application, chatroom });
  await countHandoffRequested(app, { application, chatroom });
  return emitWebhookEvent(app, application.ownerId, {
    type: 'handoff.requested',
    data: {
      application_uuid: application.uuid,
      chatroom: serializeChatroom(chatroom),
      visitor_uuid: chatroom.visitorUuid,
    },
  });
}

/** `knowledge.item.ready` or `knowledge.item.failed`: an item's ingestion ended. */
export async function emitKnowledgeItemEnded(
  app: FastifyInstance,
  owner: { ownerId: number; applicationUuid: string },
  row: KnowledgeItemRow,
) {
  if (row.status !== 'ready' && row.status !== 'failed') return 0;
  await notifyKnowledgeFailed(app, owner, row);
  return emitWebhookEvent(app, owner.ownerId, {
    type: row.status === 'ready' ? 'knowledge.item.ready' : 'knowledge.item.failed',
    data: { application_uuid: owner.applicationUuid, item: serializeItem(row) },
  });
}
