import type { TFeedback, TMessageEvent } from '@cairn/contracts/chat';
import type { chatrooms, knowledgeItems, messages } from '@cairn/db/schema';

/**
 * The product's events (decision 076): what happened, told once by the operation that made it
 * happen, after its change committed. Whoever must react (the owner's sockets, webhooks,
 * notifications, analytics) subscribes from its own module's plugin, so no module calls another
 * module to say "something happened". This file imports no module: every module may import it.
 */
type ChatroomRow = typeof chatrooms.$inferSelect;
type MessageRow = typeof messages.$inferSelect;
type KnowledgeItemRow = typeof knowledgeItems.$inferSelect;

/** The chatroom an event happened in, and the application (and owner) it belongs to. */
export interface InChatroom {
  application: { uuid: string; ownerId: number };
  chatroom: ChatroomRow;
}
export interface ItemOwner {
  ownerId: number;
  applicationUuid: string;
}

export interface ProductEvents {
  /** The chat as the owner sees it changed: a message added or changed, a chatroom changed or deleted. */
  'chat.changed': { ownerId: number; change: TMessageEvent };
  /** The owner opened a chatroom's messages in the app. */
  'chatroom.seen': { ownerId: number; chatroomUuid: string };
  /** A new chatroom, whatever its source. */
  'conversation.created': InChatroom;
  /** A user, visitor or owner message, or an answer that reached its final status. */
  'message.created': InChatroom & { message: MessageRow };
  /** An answer's rating was set, changed or cleared (`previous` is the rating it replaced). */
  'message.rated': InChatroom & { message: MessageRow; previous: TFeedback | null };
  /** A widget visitor asked for a person, who is to reply within the widget's `takeover` wait. */
  'handoff.requested': InChatroom & { takeover: { wait_minutes: number; email_owner: boolean } };
  /** The owner's first reply to a visitor who waited for a person since `waitingSince`. */
  'handoff.answered': InChatroom & { reply: MessageRow; waitingSince: Date };
  /** Items' ingestion ended, `ready` or `failed` (a batch: subscribers may look things up once for it). */
  'knowledge.items.ended': { owner: ItemOwner; items: KnowledgeItemRow[] };
  /** Scheduled checks of a web page (or a site import) started failing. */
  'knowledge.check.failing': { owner: ItemOwner; item: KnowledgeItemRow; reason: string };
  /**
   * Applications were deleted (one, or all of a deleted account's), their rows gone by cascade: what
   * they left outside the database, read before the delete (stored originals, Telegram webhooks).
   */
  'applications.deleted': {
    files: readonly (string | null)[];
    telegramWebhooks: Array<{ uuid: string; botTokenCiphertext: string }>;
  };
  /** An owner's integration stopped working: a webhook Cairn turned off, a Slack or Telegram bot failing. */
  'integration.failed': { ownerId: number; title: string; reason: string };
}
export type ProductEventType = keyof ProductEvents;
export type ProductEventHandler<T extends ProductEventType> = (payload: ProductEvents[T]) => Promise<void>;

export interface ProductEventBus {
  /** Adds a subscriber; subscribers of a type run in the order they subscribed. */
  on<T extends ProductEventType>(type: T, handler: ProductEventHandler<T>): void;
  /**
   * Runs the type's subscribers one after the other and resolves when all have run, so what one
   * operation emits reaches sockets and webhooks in the order it was emitted. A subscriber decides
   * its own failure policy: the outbox ones (webhooks, notifications, analytics) log and go on, the
   * sockets' publish rejects as it always did.
   */
  emit<T extends ProductEventType>(type: T, payload: ProductEvents[T]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    events: ProductEventBus;
  }
}

export function createProductEventBus(): ProductEventBus {
  const handlers = new Map<ProductEventType, Array<(payload: never) => Promise<void>>>();
  return {
    on(type, handler) {
      const list = handlers.get(type) ?? [];
      list.push(handler);
      handlers.set(type, list);
    },
    async emit(type, payload) {
      // Stored untyped; `on` paired each handler with its type's payload.
      for (const handler of handlers.get(type) ?? [])
        await (handler as ProductEventHandler<typeof type>)(payload);
    },
  };
}
