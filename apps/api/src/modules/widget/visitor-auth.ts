import { VISITOR_TOKEN_PREFIX } from '@cairn/contracts/widget';
import { preparedPerDb } from '@cairn/db/prepared';
import { applications, chatrooms, widgets } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import type { ChatroomRow } from '../chatrooms/serialize-chat.ts';
import type { VisitorClaims } from './visitor-token.ts';
import { type Widget, widgetOf } from './widget-settings.ts';

export interface VisitorContext {
  claims: VisitorClaims;
  application: ApplicationRow;
  widget: Widget;
}

const unauthorized = (detail: string) =>
  new AppError('unauthorized', detail, undefined, { 'www-authenticate': 'Bearer' });

/**
 * The visitor principal (DESIGN §8): a genuine, unexpired visitor token, for a widget that is still
 * on and still allows the token's origin. Checked on every call, so turning the widget off or
 * removing an origin stops its visitors at once. Nothing here trusts an `Origin` header.
 */
export async function authenticateVisitor(
  app: Ctx,
  request: FastifyRequest,
  options: { renewal?: boolean } = {},
): Promise<VisitorContext> {
  return (await readVisitor(app, request, options)).visitor;
}

/**
 * The visitor (as `authenticateVisitor`) and their own conversation `conversationUuid`, a 404
 * whether absent or someone else's: read in the same round trip as the application and the widget,
 * one statement fewer on every message a visitor sends in a conversation.
 */
export async function authenticateVisitorIn(
  app: Ctx,
  request: FastifyRequest,
  conversationUuid: string,
): Promise<{ visitor: VisitorContext; chatroom: ChatroomRow }> {
  const { visitor, chatroom } = await readVisitor(app, request, {}, conversationUuid);
  if (!chatroom) throw notFound('Conversation not found.');
  return { visitor, chatroom };
}

// Every visitor call runs it.
const visitorLookup = preparedPerDb((db) =>
  db
    .select({ application: applications, widget: widgets, chatroom: chatrooms })
    .from(applications)
    .leftJoin(widgets, eq(widgets.applicationId, applications.id))
    .leftJoin(
      chatrooms,
      and(
        eq(chatrooms.uuid, sql.placeholder('conversation')),
        eq(chatrooms.applicationId, applications.id),
        eq(chatrooms.visitorUuid, sql.placeholder('visitor')),
      ),
    )
    .where(eq(applications.uuid, sql.placeholder('application')))
    .prepare('visitor_lookup'),
);

async function readVisitor(
  app: Ctx,
  request: FastifyRequest,
  options: { renewal?: boolean },
  conversationUuid?: string,
): Promise<{ visitor: VisitorContext; chatroom: ChatroomRow | null }> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '');
  if (!match?.[1]?.startsWith(VISITOR_TOKEN_PREFIX)) {
    throw unauthorized(
      'A visitor token is required (Authorization: Bearer cwv1.…); open the chat from the website.',
    );
  }
  const claims = app.visitorTokens.verify(match[1], options);
  if (!claims) throw unauthorized('The visitor token is invalid or has expired; reload the page.');
  // One round trip for all of them (no conversation named: none matches a null uuid).
  const [row] = await visitorLookup(app.db).execute({
    application: claims.a,
    visitor: claims.v,
    conversation: conversationUuid ?? null,
  });
  if (!row) throw unauthorized('The visitor token is invalid or has expired; reload the page.');
  const { application } = row;
  const widget = widgetOf(application, row.widget ?? undefined);
  if (!widget.enabled || !widget.allowed_origins.includes(claims.o)) {
    throw new AppError('forbidden', 'This chat is not available on this website.');
  }
  return { visitor: { claims, application, widget }, chatroom: row.chatroom };
}
