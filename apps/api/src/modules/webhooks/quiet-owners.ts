import type { Database } from '@cairn/db/client';

/**
 * Owners known to have no enabled webhook (decision 100): their events are told to no webhook
 * without a statement. For such an owner, every answer otherwise looked the webhooks up about 2.2
 * times (its question, its answer, a new chatroom), each a statement on PGlite's one connection.
 *
 * Known only where this process sees every change of the webhooks table: PGlite, whose data dir is
 * locked to one process. On PostgreSQL another process (ROLE=api beside ROLE=worker, or several)
 * may create a webhook, and no notice of it is sure to arrive before the next event it must hear;
 * there the lookup runs for every event, as before, and costs no other request its connection.
 *
 * Only "none" is remembered. Deleting a webhook or turning it off (by hand or after failing) cannot
 * make it wrong; a change that may add a listener (create, update) forgets it (`changed`).
 */
export interface QuietOwners {
  /** The owner had no enabled webhook when last looked up, and nothing may have added one since. */
  has(ownerId: number): boolean;
  /**
   * Runs a lookup of the owner's webhooks; when `none` says it found no enabled one, remembers it,
   * unless a webhook changed while the lookup ran (its answer may predate that change).
   */
  lookUp<T>(ownerId: number, lookup: () => Promise<T>, none: (found: T) => boolean): Promise<T>;
  /** A webhook of the owner was created or changed (committed): look its webhooks up again. */
  changed(ownerId: number): void;
}

/** What is remembered, per database: two apps on one PGlite (tests) share what they know. */
interface Known {
  quiet: Set<number>;
  /** Counts `changed` calls: a lookup that saw it move may have read before the change. */
  changes: number;
}
const known = new WeakMap<Database, Known>();

/** Remembers nothing: on PostgreSQL every event looks the webhooks up. */
const ALWAYS_LOOK_UP: QuietOwners = {
  has: () => false,
  lookUp: (_ownerId, lookup) => lookup(),
  changed: () => {},
};

export function quietOwners(database: Database): QuietOwners {
  if (database.kind !== 'pglite') return ALWAYS_LOOK_UP;
  let state = known.get(database);
  if (!state) {
    state = { quiet: new Set(), changes: 0 };
    known.set(database, state);
  }
  const current = state;
  return {
    has: (ownerId) => current.quiet.has(ownerId),
    async lookUp(ownerId, lookup, none) {
      const before = current.changes;
      const found = await lookup();
      if (none(found) && current.changes === before) current.quiet.add(ownerId);
      return found;
    },
    changed(ownerId) {
      current.changes++;
      current.quiet.delete(ownerId);
    },
  };
}
