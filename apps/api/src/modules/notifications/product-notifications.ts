import { ASSISTANT_SENDER, CHATROOM_SOURCE_LABELS } from '@cairn/contracts/chat';
import { applications } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { InChatroom, ProductEvents } from '../../lib/product-events.ts';
import { markChatroomSeen } from './mark-chatroom-seen.ts';
import { type NewNotification, recordNotification } from './record-notification.ts';

/**
 * The notifications' subscriber (decision 067, 076): the product events that notify the owner.
 * Each decides from the rows it is given whether the event is one to tell, so the many messages
 * that are not cost no query. None throws.
 */
export function subscribeNotifications(app: Ctx) {
  app.events.on('chatroom.seen', ({ ownerId, chatroomId }) => markChatroomSeen(app, ownerId, chatroomId));
  app.events.onDurable('conversation.created', (where) => notifyConversationStarted(app, where));
  app.events.onDurable('message.created', (where) => notifyMessage(app, where, where.message));
  // Told when an answer is rated anew (a rating cleared or set again is nothing new).
  app.events.onDurable('message.rated', async (where) => {
    if (where.message.feedback !== where.previous) await notifyFeedback(app, where, where.message);
  });
  app.events.onDurable('handoff.requested', (event) => notifyHandoff(app, event));
  app.events.onDurable('knowledge.items.ended', async ({ owner, items }) => {
    for (const row of items) await notifyKnowledgeFailed(app, owner, row);
  });
  app.events.onDurable('knowledge.check.failing', ({ owner, item, reason }) =>
    notifyCheckFailing(app, owner, item, reason),
  );
  app.events.onDurable('integration.failed', ({ ownerId, title, reason }) =>
    notifyIntegrationFailed(app, ownerId, { title, reason }),
  );
}

type Where = InChatroom;
type ChatroomRow = InChatroom['chatroom'];
type MessageRow = ProductEvents['message.created']['message'];
type KnowledgeItemRow = ProductEvents['knowledge.check.failing']['item'];

/** `web` chatrooms are the owner's own chats in the app: nothing there to be told about. */
const fromOthers = (chatroom: ChatroomRow) => chatroom.source !== 'web';
const PROGRAM_SOURCES = new Set<ChatroomRow['source']>(['api', 'mcp']);
/**
 * A person on the other side: widget, Slack and Telegram. An API or MCP conversation is a
 * program's call (each call can be one), never news to be told; the conversation log shows them.
 */
const withAVisitor = (chatroom: ChatroomRow) => fromOthers(chatroom) && !PROGRAM_SOURCES.has(chatroom.source);

const oneLine = (text: string, max = 140) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

async function notifyInChatroom(
  app: Ctx,
  { application, chatroom }: Where,
  make: (appName: string, room: string) => Omit<NewNotification, 'application' | 'chatroom' | 'link'>,
) {
  const [row] = await app.db
    .select({ name: applications.name })
    .from(applications)
    .where(eq(applications.id, chatroom.applicationId));
  await recordNotification(app, application.ownerId, {
    ...make(row?.name ?? 'Your application', oneLine(chatroom.name, 80)),
    application: { id: chatroom.applicationId, uuid: application.uuid },
    chatroom: { id: chatroom.id, uuid: chatroom.uuid },
    link: `/applications/${application.uuid}/messages/${chatroom.uuid}`,
  });
}

async function notifyConversationStarted(app: Ctx, where: Where) {
  if (!withAVisitor(where.chatroom)) return;
  await notifyInChatroom(app, where, (appName, room) => ({
    event: 'conversation_started',
    title: `New ${CHATROOM_SOURCE_LABELS[where.chatroom.source]} conversation in ${appName}`,
    body: room,
  }));
}

async function notifyMessage(app: Ctx, where: Where, row: MessageRow) {
  const { chatroom } = where;
  if (!fromOthers(chatroom)) return;
  if (row.senderIdentifier === ASSISTANT_SENDER) {
    if (row.status !== 'complete' || row.metadata.not_covered !== true) return;
    await notifyInChatroom(app, where, (appName, room) => ({
      event: 'unanswered_question',
      title: `${appName} could not answer a question`,
      body: room,
    }));
    return;
  }
  // The owner's own replies (reg_<id>) are not news to the owner.
  if (chatroom.handledBy !== 'human' || row.senderIdentifier.startsWith('reg_')) return;
  await notifyInChatroom(app, where, (appName) => ({
    event: 'visitor_replied',
    title: `A visitor replied in ${appName}`,
    body: oneLine(row.message),
  }));
}

async function notifyFeedback(app: Ctx, where: Where, row: MessageRow) {
  if (row.feedback !== 'down') return;
  await notifyInChatroom(app, where, (appName, room) => ({
    event: 'negative_feedback',
    title: `An answer in ${appName} got a thumbs down`,
    body: room,
  }));
}

async function notifyHandoff(app: Ctx, where: ProductEvents['handoff.requested']) {
  const { takeover } = where;
  // The widget's settings as the visitor's request read them. The timeout job (handoff.ts) was queued for the wait from now: the same deadline, on the
  // notifications' clock (which tests set).
  const replyBy = new Date(app.notifications.clock().getTime() + takeover.wait_minutes * 60_000);
  await notifyInChatroom(app, where, (appName, room) => ({
    event: 'handoff_requested',
    title: `A visitor is waiting for a person in ${appName}`,
    // The conversation's name is the visitor's first question, quoted as written; each channel adds
    // the time left as it sends (handoff-deadline.ts).
    body: `“${room}”`,
    replyBy,
    // The widget's "E-mail me" switch turns this widget's handoff e-mails off; otherwise the
    // profile decides, with skip-if-seen and quiet hours like every e-mail, but no delay.
    emailOff: !takeover.email_owner,
  }));
}

async function notifyKnowledgeFailed(
  app: Ctx,
  owner: { ownerId: number; applicationUuid: string },
  row: KnowledgeItemRow,
) {
  if (row.status !== 'failed') return;
  await recordNotification(app, owner.ownerId, {
    event: 'knowledge_failed',
    title: `A knowledge item could not be indexed: ${oneLine(row.title || 'untitled', 80)}`,
    body: row.error ?? '',
    application: { id: row.applicationId, uuid: owner.applicationUuid },
    link: `/applications/${owner.applicationUuid}/knowledge-base`,
  });
}

/** Scheduled checks of a web page (or a site import) started failing: told once, until it recovers. */
async function notifyCheckFailing(
  app: Ctx,
  owner: { ownerId: number; applicationUuid: string },
  row: KnowledgeItemRow,
  reason: string,
) {
  await recordNotification(app, owner.ownerId, {
    event: 'knowledge_failed',
    title: `A web page could not be checked for changes: ${oneLine(row.title || row.source || 'untitled', 80)}`,
    body: `${reason} What was indexed before keeps answering; Cairn tries again later, less often.`,
    application: { id: row.applicationId, uuid: owner.applicationUuid },
    link: `/applications/${owner.applicationUuid}/knowledge-base`,
  });
}

/** A webhook Cairn turned off, or a chat integration that stopped working. */
export async function notifyIntegrationFailed(
  app: Ctx,
  ownerId: number,
  what: { title: string; reason: string },
) {
  await recordNotification(app, ownerId, {
    event: 'integration_failed',
    title: oneLine(what.title),
    body: what.reason,
    link: '/settings/integrations',
  });
}
