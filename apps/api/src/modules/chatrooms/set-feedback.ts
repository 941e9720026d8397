import type { TFeedback, TMessage } from '@cairn/contracts/chat';
import { messages } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { InChatroom } from '../../lib/product-events.ts';
import { findAnswer } from './find-message.ts';
import { publishMessageUpdated } from './publish-chat-event.ts';

/**
 * Thumbs up/down (or none) on an answer, stored with the message and shown in every tab. A new
 * rating (not a cleared or repeated one) is a `feedback.created` webhook event.
 */
export async function setFeedback(
  app: Ctx,
  ownerId: number,
  params: { appId: string; chatroomId: string; messageId: string },
  feedback: TFeedback | null,
): Promise<TMessage> {
  const found = await findAnswer(app, ownerId, params);
  return publishMessageUpdated(app, ownerId, found, await storeRating(app, found, feedback));
}

/**
 * Stores an answer's rating, by its owner or a widget visitor; the rating and its `message.rated`
 * (webhooks, notifications, analytics) commit together (decision 085).
 */
export function storeRating(
  app: Ctx,
  found: InChatroom & { message: typeof messages.$inferSelect },
  feedback: TFeedback | null,
) {
  return app.events.transaction(async (tx, emit) => {
    const [rated] = await tx
      .update(messages)
      .set({ feedback })
      .where(eq(messages.id, found.message.id))
      .returning();
    emit('message.rated', { ...found, message: rated!, previous: found.message.feedback });
    return rated!;
  });
}
