import { randomUUID } from 'node:crypto';
import type { TMessageEvent } from '@cairn/contracts/chat';
import type { TRealtimeEventName } from '@cairn/contracts/realtime';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';

/** Event names of the realtime socket (spec §3), as the web app reads them too. */
export type EventName = TRealtimeEventName;
export interface RealtimeEvent {
  event: EventName;
  data: unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: {
      /** Delivers an event to every open socket of the user, in every API process. */
      publish(userId: number, event: RealtimeEvent): Promise<void>;
      /**
       * Calls `listener` with every event of the user published from now on, in any process (an
       * HTTP answer streamed from the events, as the public API's is). Returns the unsubscribe.
       */
      subscribe(userId: number, listener: RealtimeListener): () => void;
      /**
       * `subscribe` for the `message` events about one thing: a chatroom, a message, or a widget
       * visitor, by its uuid (an event goes to the listeners of every uuid it carries, once). One
       * event then costs a lookup, not a call per stream open for the owner: with 500 visitors of one
       * widget, each delta went through 500 listeners to reach one (decision 117).
       */
      subscribeTo(userId: number, uuid: string, listener: RealtimeListener): () => void;
    };
  }
}

export type RealtimeListener = (event: RealtimeEvent) => void;

/** What a `message` event is about: its chatroom, its message, the widget visitor it names. */
function uuidsOf(event: RealtimeEvent): Array<string | undefined> {
  if (event.event !== 'message') return [];
  const e = event.data as TMessageEvent;
  return [
    e.chatroom_uuid,
    e.kind === 'delta'
      ? e.message_uuid
      : e.kind === 'created' || e.kind === 'updated'
        ? e.message.uuid
        : undefined,
    'visitor_uuid' in e ? e.visitor_uuid : undefined,
  ];
}

/** Adds to a set in a map of sets; the returned function takes it out again (and the emptied set). */
function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): () => void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
  return () => {
    set.delete(value);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}

const CHANNEL = 'cairn_events';
const NOTIFY_LIMIT = 7000;

/** `o`: the publishing process, which has already delivered the event to its own sockets. */
type Envelope = { o: string; u: number; e?: RealtimeEvent; ref?: number };

/**
 * `/api/ws`: authenticated WebSocket. Events are fanned out through PostgreSQL LISTEN/NOTIFY so a
 * publish from any process (a worker, another API instance) reaches the user's sockets everywhere.
 * The publishing process writes to its own sockets at once, in publish order, without waiting for
 * its NOTIFY to come back.
 */
export default fp(async function realtimePlugin(app: FastifyInstance, opts: { serveSockets: boolean }) {
  const sockets = new Map<number, Set<WebSocket>>();
  const listeners = new Map<number, Set<RealtimeListener>>();
  /** Per user, the listeners of one uuid (`subscribeTo`). */
  const listenersOf = new Map<number, Map<string, Set<RealtimeListener>>>();
  const origin = randomUUID();

  function call(listener: RealtimeListener, event: RealtimeEvent) {
    try {
      listener(event);
    } catch (err) {
      app.log.error({ err }, 'realtime listener failed');
    }
  }

  function send(userId: number, text: string, event: RealtimeEvent) {
    const targets = sockets.get(userId);
    if (targets) for (const socket of targets) if (socket.readyState === socket.OPEN) socket.send(text);
    const subscribed = listeners.get(userId);
    if (subscribed) for (const listener of subscribed) call(listener, event);
    const byUuid = listenersOf.get(userId);
    if (!byUuid) return;
    const about = new Set<RealtimeListener>();
    for (const uuid of uuidsOf(event))
      for (const listener of (uuid && byUuid.get(uuid)) || []) about.add(listener);
    for (const listener of about) call(listener, event);
  }

  app.decorate('realtime', {
    async publish(userId: number, event: RealtimeEvent) {
      const text = JSON.stringify(event);
      send(userId, text, event);
      // The Envelope, around the event serialised once (`origin` is a uuid, `userId` a number).
      let envelope = `{"o":"${origin}","u":${userId},"e":${text}}`;
      if (Buffer.byteLength(envelope) > NOTIFY_LIMIT) {
        const { rows } = await app.database.query<{ id: number }>(
          'INSERT INTO event_payloads (body) VALUES ($1) RETURNING id',
          [JSON.stringify(event)],
        );
        envelope = JSON.stringify({ o: origin, u: userId, ref: Number(rows[0]!.id) } satisfies Envelope);
        if (Math.random() < 0.02) {
          await app.database.query(`DELETE FROM event_payloads WHERE created_at < now() - interval '1 hour'`);
        }
      }
      await app.database.notify(CHANNEL, envelope);
    },
    subscribe(userId: number, listener: RealtimeListener) {
      return addTo(listeners, userId, listener);
    },
    subscribeTo(userId: number, uuid: string, listener: RealtimeListener) {
      let byUuid = listenersOf.get(userId);
      if (!byUuid) {
        byUuid = new Map();
        listenersOf.set(userId, byUuid);
      }
      const remove = addTo(byUuid, uuid, listener);
      return () => {
        remove();
        if (byUuid.size === 0 && listenersOf.get(userId) === byUuid) listenersOf.delete(userId);
      };
    },
  });

  // Every chat change reaches every socket of the owner as a `message` event (see TMessageEvent).
  app.events.on('chat.changed', ({ ownerId, change }) =>
    app.realtime.publish(ownerId, { event: 'message', data: change }),
  );

  if (!opts.serveSockets) return;

  async function deliver(raw: string) {
    const envelope = JSON.parse(raw) as Envelope;
    if (
      envelope.o === origin ||
      !(sockets.has(envelope.u) || listeners.has(envelope.u) || listenersOf.has(envelope.u))
    )
      return;
    let event = envelope.e;
    if (envelope.ref !== undefined) {
      const { rows } = await app.database.query<{ body: string }>(
        'SELECT body FROM event_payloads WHERE id = $1',
        [envelope.ref],
      );
      if (!rows[0]) return;
      event = JSON.parse(rows[0].body) as RealtimeEvent;
    }
    if (event) send(envelope.u, JSON.stringify(event), event);
  }

  const unlisten = await app.database.listen(CHANNEL, (payload) => {
    deliver(payload).catch((err) => app.log.error({ err }, 'realtime delivery failed'));
  });

  const heartbeat = setInterval(() => {
    for (const set of sockets.values()) for (const socket of set) socket.ping();
  }, 30_000);
  heartbeat.unref();

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    for (const set of sockets.values()) for (const socket of set) socket.close(1001, 'Server shutting down');
    await unlisten();
  });

  app.get('/api/ws', { websocket: true, schema: { hide: true } }, async (socket, request) => {
    const resolved = await app.resolveUser(request).catch(() => null);
    if (!resolved) {
      socket.close(4401, 'Authentication required');
      return;
    }
    const userId = resolved.user.id;
    const remove = addTo(sockets, userId, socket);
    socket.on('message', (data) => {
      // The only client message is a keep-alive: answer it so clients can detect dead links.
      if (data.toString() === 'ping') socket.send('pong');
    });
    socket.on('close', remove);
    socket.send(JSON.stringify({ event: 'ready', data: { user_id: userId } }));
  });
});
