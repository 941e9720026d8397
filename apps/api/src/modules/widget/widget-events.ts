import type { TMessageEvent } from '@cairn/contracts/chat';
import type { TWidgetEvent } from '@cairn/contracts/widget';
import { chatrooms } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendEvents } from '../../lib/send-events.ts';
import type { RealtimeEvent } from '../../plugins/realtime.ts';
import { widgetConversationOf, widgetMessageOf } from './serialize-widget.ts';
import type { VisitorContext } from './visitor-auth.ts';
import { loadWidget } from './widget-settings.ts';

const PING_MS = 25_000;
/**
 * Open streams per HTTP server (shared by every encapsulated instance of one app), ended when it
 * closes: a stream never ends on its own and would keep the server from stopping.
 */
const openStreams = new WeakMap<object, Set<() => void>>();

export function endVisitorStreams(app: FastifyInstance) {
  for (const end of openStreams.get(app.server) ?? []) end();
}

/** The owner's event as the visitor sees it, or null when it is not about this visitor's conversations. */
export function toWidgetEvent(
  e: TMessageEvent,
  mine: Set<string>,
  visitorUuid: string,
  show: boolean,
): TWidgetEvent | null {
  // The chatroom's event, or an answer's that says whose conversation it is: another process may
  // publish the answer's events before the chatroom's reaches this one (decision 094).
  if ('visitor_uuid' in e && e.visitor_uuid === visitorUuid) mine.add(e.chatroom_uuid);
  if (!mine.has(e.chatroom_uuid)) return null;
  switch (e.kind) {
    case 'chatroom':
      return { kind: 'conversation', conversation: widgetConversationOf(e.chatroom) };
    case 'created':
    case 'updated':
      return { kind: e.kind, conversation_uuid: e.chatroom_uuid, message: widgetMessageOf(e.message, show) };
    case 'delta':
      return {
        kind: 'delta',
        conversation_uuid: e.chatroom_uuid,
        message_uuid: e.message_uuid,
        run: e.run,
        offset: e.offset,
        delta: e.delta,
      };
    default:
      return null;
  }
}

/**
 * `GET /api/widget/v1/events/`: Server-Sent Events of the visitor's own conversations, taken from
 * the owner's `message` events (any process publishes them). Subscribed before the visitor's
 * conversations are read, so none created meanwhile is missed; a new one is recognised by the
 * `visitor_uuid` of its `chatroom` event. Every ping re-reads the widget: turned off, or the
 * origin removed, ends the stream.
 */
export async function streamVisitorEvents(
  app: FastifyInstance,
  visitor: VisitorContext,
  reply: FastifyReply,
) {
  const { application, claims } = visitor;
  const show = visitor.widget.show_sources;
  const mine = new Set<string>();
  let ready = false;
  const early: TMessageEvent[] = [];
  const raw = reply.raw;
  const write = (event: TWidgetEvent) =>
    sendEvents(raw, `event: message\ndata: ${JSON.stringify(event)}\n\n`);
  /** The stream's subscriptions by uuid: its visitor's and each of its conversations'. */
  const subscriptions = new Map<string, () => void>();
  const listener = ({ event, data }: RealtimeEvent) => {
    if (event !== 'message') return;
    if (ready) deliver(data as TMessageEvent);
    else early.push(data as TMessageEvent);
  };
  const follow = (uuid: string) => {
    if (!subscriptions.has(uuid))
      subscriptions.set(uuid, app.realtime.subscribeTo(application.ownerId, uuid, listener));
  };
  const deliver = (e: TMessageEvent) => {
    if (e.application_uuid !== application.uuid) return;
    const event = toWidgetEvent(e, mine, claims.v, show);
    if (!event) return;
    // A conversation recognised by its visitor: its next events come by its own uuid.
    follow(e.chatroom_uuid);
    write(event);
  };

  // Every event of the owner until the visitor's conversations are known (none is missed meanwhile),
  // then only those about the visitor and the conversations.
  let unsubscribeAll: (() => void) | undefined = app.realtime.subscribe(application.ownerId, listener);
  const unsubscribe = () => {
    unsubscribeAll?.();
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  };
  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-request-id': String(reply.request.id),
  });
  raw.write(': connected\n\n');

  let ping: NodeJS.Timeout | undefined;
  const streams = openStreams.get(app.server) ?? new Set();
  openStreams.set(app.server, streams);
  const end = () => {
    streams.delete(end);
    clearInterval(ping);
    unsubscribe();
    if (!raw.writableEnded) raw.end();
  };
  streams.add(end);
  raw.once('close', end);
  try {
    const rows = await app.db
      .select({ uuid: chatrooms.uuid })
      .from(chatrooms)
      .where(and(eq(chatrooms.applicationId, application.id), eq(chatrooms.visitorUuid, claims.v)));
    for (const row of rows) mine.add(row.uuid);
  } catch (err) {
    app.log.warn({ err }, 'could not read the visitor conversations');
    end();
    return;
  }
  ready = true;
  follow(claims.v);
  for (const room of mine) follow(room);
  unsubscribeAll();
  unsubscribeAll = undefined;
  for (const e of early.splice(0)) deliver(e);
  ping = setInterval(() => {
    loadWidget(app.db, application)
      .then((widget) => {
        if (!widget.enabled || !widget.allowed_origins.includes(claims.o)) end();
        else raw.write(': ping\n\n');
      })
      .catch(() => raw.write(': ping\n\n'));
  }, PING_MS);
}
