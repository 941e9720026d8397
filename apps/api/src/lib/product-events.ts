import type { TFeedback, TMessageEvent } from '@cairn/contracts/chat';
import type { Database, Db } from '@cairn/db/client';
import { chatrooms, knowledgeItems, messages, productOutbox } from '@cairn/db/schema';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The product's events (decisions 076, 085): what happened, told once by the operation that made it
 * happen. Whoever must react subscribes from its own module's plugin, so no module calls another
 * module to say "something happened". This file imports no module: every module may import it.
 *
 * Two kinds of subscriber. A live one (`on`: the owner's sockets) runs in the operation's request
 * right after its change committed, as it always did. A durable one (`onDurable`: webhooks,
 * notifications and their e-mails, analytics) must survive a crash: the events it hears are written
 * to `product_outbox` in the operation's own transaction (`transaction`), and after the commit an
 * in-process serial dispatcher delivers them, in emit order, without holding the response; a
 * periodic sweep delivers what a process that died left behind. Delivery is at least once.
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
  'chatroom.seen': { ownerId: number; chatroomId: number };
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
/**
 * What only the owner's open screens hear, many times per answer (every delta): never in the
 * outbox, told by `emit` after the change committed. Every other event has durable subscribers and
 * is told with its change (`transaction`, `written`).
 */
export type LiveEventType = 'chat.changed' | 'chatroom.seen';
export type DurableEventType = Exclude<ProductEventType, LiveEventType>;
/** One event and its payload, of any type. */
export type AnyProductEvent = {
  [T in ProductEventType]: { type: T; payload: ProductEvents[T] };
}[ProductEventType];
export type ProductEventHandler<T extends ProductEventType> = (payload: ProductEvents[T]) => Promise<void>;
/** Stages an event of the operation under way: told after its transaction commits, never if it rolls back. */
export type StageEvent = <T extends ProductEventType>(type: T, payload: ProductEvents[T]) => void;

export interface ProductEventBus {
  /**
   * Adds a live subscriber: it runs in the emitting request after the commit, awaited (the owner's
   * sockets). Subscribers of a type run in the order they subscribed.
   */
  on<T extends ProductEventType>(type: T, handler: ProductEventHandler<T>): void;
  /**
   * Adds a durable subscriber: what it hears is in the outbox with the change, and it runs after the
   * commit, off the request, in emit order; at least once (again after a crash before the row was
   * deleted). It decides its own failure policy: one that throws is logged, and not run again.
   */
  onDurable<T extends DurableEventType>(type: T, handler: ProductEventHandler<T>): void;
  /** Tells a live event (its change committed): its subscribers run before this resolves. */
  emit<T extends LiveEventType>(type: T, payload: ProductEvents[T]): Promise<void>;
  /**
   * Runs `work` in a transaction whose events (`emit`) are staged, written to the outbox in that
   * transaction (one row, when any has a durable subscriber) and told after it commits: live
   * subscribers before this resolves, durable ones handed to the dispatcher.
   */
  transaction<R>(work: (tx: Db, emit: StageEvent) => Promise<R>): Promise<R>;
  /**
   * Tells an event whose outbox row the caller wrote in its change's own statement (a single write
   * kept to one statement: `outboxEventsWithRows`); `outboxId` is that row's id.
   */
  written(outboxId: number, events: AnyProductEvent[]): Promise<void>;
  /**
   * Settles once this process has run the durable subscribers of an outbox row it was told of
   * (`written`, `transaction`); at once when it holds no such row (delivered already, or by a sweep
   * or another process). Never rejects: a failing subscriber is the dispatcher's to log.
   */
  delivered(outboxId: number): Promise<void>;
  /**
   * Delivers outbox rows older than `graceMs` that no dispatcher of this process holds (those of a
   * process that died before delivering); on PostgreSQL rows another process sweeps are skipped.
   * Resolves with how many rows it delivered.
   */
  sweep(graceMs: number): Promise<number>;
  /** Resolves when this process has delivered every durable event handed to it so far (and any sweep under way). */
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    events: ProductEventBus;
  }
}

interface Staged {
  type: ProductEventType;
  payload: unknown;
}
/** Where the outbox is and who logs for it: the bus is made before the database plugin runs. */
export interface OutboxStore {
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  /** False: the rows are written and never delivered by this process (a test's crashed process). */
  deliver: boolean;
}

/** Outbox rows taken per sweep statement. */
const SWEEP_BATCH = 100;
/**
 * Delivered rows are deleted together at most this long after their delivery (one statement for
 * every operation delivered meanwhile, not one per operation); a crash within it delivers them again.
 */
const DELETE_AFTER_MS = 1000;

/** Rows an outbox event may carry as written by SQL (`to_jsonb`), revived into drizzle's shape. */
const ROW_TABLES = { messages, chatrooms, knowledgeItems } as const;
type RowTable = keyof typeof ROW_TABLES;

/** A row as the database returns it (column names, driver values) in the shape drizzle returns it. */
export function rowFromDatabase<K extends RowTable>(
  table: K,
  raw: Record<string, unknown>,
): (typeof ROW_TABLES)[K]['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(ROW_TABLES[table]))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as (typeof ROW_TABLES)[K]['$inferSelect'];
}

/** A row an event's payload takes from the statement: the CTE (or alias) `cte`'s row, a `table` row. */
export interface RowFrom {
  table: RowTable;
  cte: string;
}

/** An event whose `rows` name the payload keys that are rows of the statement's CTEs. */
export interface EventWithRows {
  type: ProductEventType;
  payload: object;
  rows?: Record<string, RowFrom>;
}

/**
 * The `events` of an outbox row, for an INSERT in the same statement as the change (a
 * data-modifying CTE): the events in order, each `rows` key set to that CTE's row (as `RETURNING *`
 * gives it). Read back like any staged event.
 */
export function outboxEventsWithRows(events: EventWithRows[]): SQL {
  let json = sql`${toJson(events.map(({ type, payload }) => ({ type, payload })))}::jsonb`;
  events.forEach((event, i) => {
    for (const [key, from] of Object.entries(event.rows ?? {})) {
      json = sql`jsonb_set(${json}, ${`{${i},payload,${key}}`}::text[], ${sql.raw(rowAsJson(from.table, from.cte))})`;
    }
  });
  return json;
}

/**
 * The same events for `written`, each `rows` key set to the row the statement returned for that CTE
 * (`rowOf`, by CTE name): what the sweep would read back from the outbox row.
 */
export function eventsWithRowsOf(events: EventWithRows[], rowOf: Record<string, object>): AnyProductEvent[] {
  return events.map(({ type, payload, rows }) => ({
    type,
    payload: {
      ...payload,
      ...Object.fromEntries(Object.entries(rows ?? {}).map(([key, from]) => [key, rowOf[from.cte]])),
    },
  })) as AnyProductEvent[]; // the payloads' shapes are the callers' to match their types, as for the sweep's rows
}

/**
 * SQL for a row of the CTE (or table alias) `alias`, a `table` row, as an outbox event's payload
 * value (read back as drizzle's row), for raw statements that write their outbox row themselves.
 */
export function rowAsJson(table: RowTable, alias: string): string {
  if (!/^[a-z_]+$/.test(alias)) throw new Error(`not a plain SQL alias: ${alias}`);
  return `jsonb_build_object('$row', '${table}', 'v', to_jsonb(${alias}))`;
}

/** JSON keeps no Date: they are stored as `{ "$date": iso }` and revived on reading. */
function toJson(events: Staged[]): string {
  return JSON.stringify(events, function (this: Record<string, unknown>, key, value) {
    const raw = this[key];
    return raw instanceof Date ? { $date: raw.toISOString() } : value;
  });
}
export function fromJson(text: string): Staged[] {
  return JSON.parse(text, (_key, value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    if (typeof value.$date === 'string' && Object.keys(value).length === 1) return new Date(value.$date);
    if (typeof value.$row === 'string' && value.$row in ROW_TABLES && Object.keys(value).length === 2)
      return rowFromDatabase(value.$row as RowTable, value.v);
    return value;
  }) as Staged[];
}

export function createProductEventBus(store: () => OutboxStore): ProductEventBus {
  type Handler = (payload: never) => Promise<void>;
  const live = new Map<ProductEventType, Handler[]>();
  const durable = new Map<ProductEventType, Handler[]>();
  const add = (map: Map<ProductEventType, Handler[]>, type: ProductEventType, handler: Handler) => {
    map.set(type, [...(map.get(type) ?? []), handler]);
  };

  /** Operations whose durable events wait for the dispatcher, in commit order; `id` null: no row. */
  const queue: Array<{ id: number | null; events: Staged[] }> = [];
  /** Rows this process delivers (queued or under way): a sweep leaves them alone. */
  const held = new Set<number>();
  /** Rows handed to the dispatcher and not run yet, with what their `delivered` waiters wait on. */
  const pending = new Map<number, PromiseWithResolvers<void>>();
  let dispatching: Promise<void> | null = null;
  let sweeping: Promise<number> | null = null;

  async function runLive(events: Staged[]) {
    for (const { type, payload } of events)
      for (const handler of live.get(type) ?? [])
        await (handler as ProductEventHandler<typeof type>)(payload as never);
  }
  async function runDurable(events: Staged[]) {
    for (const { type, payload } of events) {
      for (const handler of durable.get(type) ?? []) {
        try {
          await (handler as ProductEventHandler<typeof type>)(payload as never);
        } catch (err) {
          store().log.error({ err, type }, 'a durable subscriber of a product event failed');
        }
      }
    }
  }
  /** Delivered rows not deleted yet, and the timer that deletes them. */
  let delivered: number[] = [];
  let deleteTimer: NodeJS.Timeout | undefined;
  let deleting: Promise<void> | null = null;
  function flushDeletes(): Promise<void> {
    clearTimeout(deleteTimer);
    deleteTimer = undefined;
    const ids = delivered;
    delivered = [];
    const run = (deleting ?? Promise.resolve()).then(async () => {
      await remove(ids);
      for (const id of ids) held.delete(id);
    });
    const tracked = run.finally(() => {
      if (deleting === tracked) deleting = null;
    });
    deleting = tracked;
    return tracked;
  }
  async function remove(ids: number[]) {
    if (!ids.length) return;
    try {
      await store().database.query('DELETE FROM product_outbox WHERE id = ANY($1::bigint[])', [
        `{${ids.join(',')}}`,
      ]);
    } catch (err) {
      // Left in the outbox: a sweep delivers them again (at least once).
      store().log.error({ err, ids }, 'could not delete delivered product events from the outbox');
    }
  }
  /** The serial dispatcher: drains the queue batch by batch, one DELETE per batch. */
  async function dispatch() {
    // After the response's own work of this tick: the request never waits for the first event.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (queue.length) {
      const batch = queue.splice(0);
      for (const entry of batch) {
        try {
          await runDurable(entry.events);
          if (entry.id !== null) delivered.push(entry.id);
        } finally {
          if (entry.id !== null) {
            pending.get(entry.id)?.resolve();
            pending.delete(entry.id);
          }
        }
      }
    }
    if (delivered.length && !deleteTimer) {
      deleteTimer = setTimeout(() => void flushDeletes(), DELETE_AFTER_MS);
      deleteTimer.unref();
    }
  }
  function hand(id: number | null, events: Staged[]) {
    if (!events.length || !store().deliver) return;
    queue.push({ id, events });
    if (id !== null) pending.set(id, Promise.withResolvers<void>());
    dispatching ??= dispatch().finally(() => {
      dispatching = null;
    });
  }
  const isDurable = (event: Staged) => durable.has(event.type);
  async function writeRow(db: Db, events: Staged[]): Promise<number> {
    const [row] = await db
      .insert(productOutbox)
      .values({ events: sql`${toJson(events)}::jsonb` })
      .returning({ id: productOutbox.id });
    return row!.id;
  }

  async function sweepOnce(graceMs: number): Promise<number> {
    const { database, db } = store();
    type Row = { id: number | string; events: string };
    const take = (lock: boolean) => sql`
      SELECT id, events::text AS events FROM product_outbox
      WHERE created_at < now() - ${Math.round(graceMs)}::int * interval '1 millisecond'
        AND NOT (id = ANY(${`{${[...held].join(',')}}`}::bigint[]))
      ORDER BY id LIMIT ${SWEEP_BATCH}::int ${lock ? sql`FOR UPDATE SKIP LOCKED` : sql``}`;
    let delivered = 0;
    for (;;) {
      let ids: number[];
      if (database.kind === 'postgres') {
        // Rows stay locked while delivered: another process's sweep skips them, a crash frees them.
        ids = await db.transaction(async (tx) => {
          const { rows } = (await tx.execute(take(true))) as unknown as { rows: Row[] };
          for (const row of rows) await runDurable(fromJson(row.events));
          const taken = rows.map((row) => Number(row.id));
          if (taken.length)
            await tx.execute(
              sql`DELETE FROM product_outbox WHERE id = ANY(${`{${taken.join(',')}}`}::bigint[])`,
            );
          return taken;
        });
      } else {
        // PGlite: no other process holds this data dir, and a transaction here would hold the one
        // connection the subscribers need.
        const { rows } = (await db.execute(take(false))) as unknown as { rows: Row[] };
        for (const row of rows) await runDurable(fromJson(row.events));
        ids = rows.map((row) => Number(row.id));
        await remove(ids);
      }
      delivered += ids.length;
      if (ids.length < SWEEP_BATCH) return delivered;
    }
  }

  return {
    on(type, handler) {
      add(live, type, handler as Handler);
    },
    onDurable(type, handler) {
      add(durable, type, handler as Handler);
    },
    async emit(type, payload) {
      for (const handler of live.get(type) ?? [])
        await (handler as ProductEventHandler<typeof type>)(payload);
    },
    async transaction(work) {
      let staged: Staged[] = [];
      let id: number | null = null;
      const result = await store().db.transaction(async (tx) => {
        staged = [];
        id = null;
        const out = await work(tx, (type, payload) => {
          staged.push({ type, payload });
        });
        const lasting = staged.filter(isDurable);
        if (lasting.length) id = await writeRow(tx, lasting);
        return out;
      });
      if (id !== null) held.add(id);
      await runLive(staged);
      hand(id, staged.filter(isDurable));
      return result;
    },
    async written(outboxId, events) {
      held.add(outboxId);
      await runLive(events);
      hand(outboxId, events);
    },
    delivered(outboxId) {
      return pending.get(outboxId)?.promise ?? Promise.resolve();
    },
    sweep(graceMs) {
      if (!store().deliver) return Promise.resolve(0);
      const run = (sweeping ?? Promise.resolve(0)).catch(() => 0).then(() => sweepOnce(graceMs));
      const tracked = run.finally(() => {
        if (sweeping === tracked) sweeping = null;
      });
      sweeping = tracked;
      return tracked;
    },
    async settled() {
      while (dispatching || sweeping || delivered.length || deleting) {
        await Promise.all([dispatching, sweeping?.catch(() => 0)]);
        if (!dispatching && delivered.length) await flushDeletes();
        await deleting;
      }
    },
  };
}
