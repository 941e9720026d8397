import { ASSISTANT_SENDER, type TFeedback } from '@cairn/contracts/chat';
import {
  type TWidgetConversationMessages,
  type TWidgetMessage,
  type TWidgetSendResponse,
  visitorSenderOf,
  type ZWidgetSendRequest,
} from '@cairn/contracts/widget';
import { chatrooms, messages } from '@cairn/db/schema';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { postMessage } from '../chatrooms/post-message.ts';
import { publishMessageUpdated } from '../chatrooms/publish-chat-event.ts';
import { type ChatroomRow, serializeChatroom, serializeMessage } from '../chatrooms/serialize-chat.ts';
import { storeRating } from '../chatrooms/set-feedback.ts';
import { widgetConversationOf, widgetMessageOf } from './serialize-widget.ts';
import type { VisitorContext } from './visitor-auth.ts';
import { takeVisitorMessage } from './visitor-limits.ts';

/** A conversation of the visitor's (`authenticateVisitorIn`) with its messages. */
export async function getVisitorConversation(
  { db }: Pick<Ctx, 'db'>,
  visitor: VisitorContext,
  chatroom: ChatroomRow,
): Promise<TWidgetConversationMessages> {
  const rows = await db
    .select()
    .from(messages)
    .where(eq(messages.chatroomId, chatroom.id))
    .orderBy(asc(messages.id));
  const show = visitor.widget.show_sources;
  return {
    conversation: widgetConversationOf(serializeChatroom(chatroom)),
    messages: rows.map((row) => widgetMessageOf(serializeMessage(row), show)),
  };
}

/**
 * The host page without its query and fragment: they can carry the host site's tokens or its
 * visitors' personal data. The loader sends neither; the server does not rely on that.
 */
const withoutQuery = (url: string) => url.split(/[?#]/, 1)[0] || null;

/**
 * A visitor's message: within the limits, into their conversation (`authenticateVisitorIn`; none: a
 * new widget chatroom that remembers the page it started on), answered unless a person handles it.
 */
export async function sendVisitorMessage(
  app: Ctx,
  visitor: VisitorContext,
  chatroom: ChatroomRow | undefined,
  ip: string,
  input: z.output<typeof ZWidgetSendRequest>,
): Promise<TWidgetSendResponse> {
  await takeVisitorMessage(app, visitor, ip);
  const posted = await postMessage(app, {
    application: visitor.application,
    chatroom,
    source: 'widget',
    visitor: { uuid: visitor.claims.v, startedOn: input.page_url ? withoutQuery(input.page_url) : null },
    senderIdentifier: visitorSenderOf(visitor.claims.v),
    message: input.message,
    metadata: { source: 'widget', origin: visitor.claims.o },
    sendToUser: false,
  });
  const show = visitor.widget.show_sources;
  return {
    conversation: widgetConversationOf(posted.chatroom),
    message: widgetMessageOf(posted.message, show),
    answer: posted.answer ? widgetMessageOf(posted.answer, show) : null,
  };
}

/** Thumbs up/down (or none) on an assistant answer of the visitor's own conversation (see setFeedback). */
export async function setVisitorFeedback(
  app: Ctx,
  visitor: VisitorContext,
  messageUuid: string,
  feedback: TFeedback | null,
): Promise<TWidgetMessage> {
  const [found] = await app.db
    .select({ message: messages, chatroom: chatrooms })
    .from(messages)
    .innerJoin(chatrooms, eq(chatrooms.id, messages.chatroomId))
    .where(
      and(
        eq(messages.uuid, messageUuid),
        eq(messages.senderIdentifier, ASSISTANT_SENDER),
        eq(chatrooms.applicationId, visitor.application.id),
        eq(chatrooms.visitorUuid, visitor.claims.v),
      ),
    );
  if (!found) throw notFound('Message not found.');
  const where = { application: visitor.application, chatroom: found.chatroom };
  const row = await storeRating(app, { ...where, message: found.message }, feedback);
  const message = await publishMessageUpdated(app, visitor.application.ownerId, where, row);
  return widgetMessageOf(message, visitor.widget.show_sources);
}
