import type { Db } from '@cairn/db/client';
import { notificationProfiles } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';

/**
 * The owner's time zone: their notification profile's, UTC without one. The conversation log's
 * dates and the analytics' days are dates there, so a day means the same on both screens.
 */
export async function ownerTimeZone(db: Db, ownerId: number): Promise<string> {
  const known = knownTimeZones(db);
  const hit = known.get(ownerId);
  if (hit && hit.until > Date.now()) return hit.timeZone;
  const [row] = await db
    .select({ timeZone: sql<string | null>`${notificationProfiles.profile}->>'time_zone'` })
    .from(notificationProfiles)
    .where(eq(notificationProfiles.userId, ownerId));
  const timeZone = row?.timeZone ?? 'UTC';
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(ownerId, { timeZone, until: Date.now() + KEEP_MS });
  return timeZone;
}

/**
 * Time zones as last read, kept a minute: the analytics date every message and answer they count,
 * which was two or three queries per answer. A change saved here is seen at once; one saved through
 * another process within the minute (the rollups may count a few events on the old zone's day).
 */
const KEEP_MS = 60_000;
const KNOWN_MAX = 10_000;
const byDatabase = new WeakMap<Db, Map<number, { timeZone: string; until: number }>>();
function knownTimeZones(db: Db) {
  let known = byDatabase.get(db);
  if (!known) {
    known = new Map();
    byDatabase.set(db, known);
  }
  return known;
}

/** The owner saved a profile: their time zone is read again. */
export function forgetTimeZone(db: Db, ownerId: number) {
  byDatabase.get(db)?.delete(ownerId);
}

/**
 * One formatter per time zone: building an `Intl.DateTimeFormat` costs about 100 µs, and the
 * analytics date every message they count (it was 1 % of the server's CPU under 50 conversations).
 * Time zones are a finite set (about 600 names), so the cache needs no bound.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The date (`YYYY-MM-DD`) of an instant in a time zone. */
export function localDate(at: Date, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    // en-CA formats dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format.format(at);
}
