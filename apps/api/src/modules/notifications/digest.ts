import type { TNotificationEvent, TNotificationProfile } from '@cairn/contracts/notifications';
import { applications, notificationProfiles, notifications, users } from '@cairn/db/schema';
import { and, asc, eq, gt, isNull, lte, ne, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../lib/ctx.ts';
import { digestMail } from './digest-mail.ts';
import { getProfile } from './profile.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

export const DIGEST_QUEUE = 'notification-digest';
/** Checked every 10 minutes: each owner's hour is met within it, and the claim below sends once. */
export const DIGEST_CRON = '*/10 * * * *';

const HOUR = 3_600_000;
/**
 * The hour (and Monday) rule already allows one run a day or a week; this only keeps the runs of
 * the same hour (every 10 minutes) from sending twice.
 */
const MIN_GAP = 2 * HOUR;
const PERIOD = { daily: 24 * HOUR, weekly: 7 * 24 * HOUR } as const;

/** The hour (0–23) and weekday (Mon…Sun) of `at` in `timeZone`. */
export function localHourAndDay(at: Date, timeZone: string): { hour: number; weekday: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: 'numeric',
    weekday: 'short',
    hourCycle: 'h23',
  }).formatToParts(at);
  return {
    hour: Number(parts.find((p) => p.type === 'hour')?.value ?? 0),
    weekday: parts.find((p) => p.type === 'weekday')?.value ?? '',
  };
}

export interface DigestGroup {
  application: string;
  items: Array<{ event: TNotificationEvent; title: string; url: string | null }>;
}

/** How long a claimed digest is left to its sender before a later run sends it again (it died). */
export const DIGEST_SEND_LEASE_MS = 5 * 60_000;

/**
 * The same for every send of one owner's digest of one period, so a mail system (or a mail client)
 * drops the copy sent again after a crash between sending it and recording it (decision 061).
 */
export function digestMessageId(app: Ctx, userId: number, periodEnd: Date): string {
  return `<digest-${userId}-${periodEnd.getTime()}@${new URL(app.config.publicUrl).hostname}>`;
}

type DigestState = Pick<
  typeof notificationProfiles.$inferSelect,
  'userId' | 'digestSentAt' | 'digestClaimedAt' | 'digestClaimedUntil'
>;

/**
 * Sends the digests that are due now: at `digest_hour` in the owner's time zone (Mondays for
 * weekly), about what happened since the last one (or over the period, the first time). Nothing is
 * sent when nothing happened. Each owner's digest is claimed first, for `DIGEST_SEND_LEASE_MS`, so
 * two processes, or two runs within the hour, send it once; it is recorded as sent only after the
 * mailer accepted it. A claim whose sender died (SIGKILL, a crash) ends, and the next run sends the
 * same digest again, under the same Message-ID. A run whose e-mail fails gives its claim back, so the
 * next run tries again. Returns the owners e-mailed.
 */
export async function sendDueDigests(app: Ctx): Promise<number[]> {
  const now = app.notifications.clock();
  const candidates = await app.db
    .select({
      userId: notificationProfiles.userId,
      digestSentAt: notificationProfiles.digestSentAt,
      digestClaimedAt: notificationProfiles.digestClaimedAt,
      digestClaimedUntil: notificationProfiles.digestClaimedUntil,
    })
    .from(notificationProfiles)
    .where(sql`${notificationProfiles.profile}->>'digest' IN ('daily', 'weekly')`);
  const sent: number[] = [];
  for (const candidate of candidates) {
    try {
      if (await sendDigestIfDue(app, candidate, now)) sent.push(candidate.userId);
    } catch (err) {
      app.log.error({ err, userId: candidate.userId }, 'digest failed');
    }
  }
  return sent;
}

/** The end of the period to send now: a dead sender's claim, else now if the owner's hour has come. */
function periodToSend(state: DigestState, profile: TNotificationProfile, now: Date): Date | null {
  if (state.digestClaimedAt) {
    // Claimed and not recorded: its sender is still at it, or died and it is sent again.
    return state.digestClaimedUntil && state.digestClaimedUntil > now ? null : state.digestClaimedAt;
  }
  const local = localHourAndDay(now, profile.time_zone);
  if (local.hour !== profile.digest_hour) return null;
  if (profile.digest === 'weekly' && local.weekday !== 'Mon') return null;
  const last = state.digestSentAt;
  if (last && now.getTime() - last.getTime() < MIN_GAP) return null;
  return now;
}

const nullOr = (column: PgColumn, value: Date | null) => (value ? eq(column, value) : isNull(column));

async function sendDigestIfDue(app: Ctx, state: DigestState, now: Date) {
  const profile = await getProfile(app.db, state.userId);
  if (profile.digest === 'off') return false;
  const periodEnd = periodToSend(state, profile, now);
  if (!periodEnd) return false;
  const until = new Date(now.getTime() + DIGEST_SEND_LEASE_MS);
  // Only if nobody claimed (or sent) it since it was read: one sender at a time.
  const claimed = await app.db
    .update(notificationProfiles)
    .set({ digestClaimedAt: periodEnd, digestClaimedUntil: until })
    .where(
      and(
        eq(notificationProfiles.userId, state.userId),
        nullOr(notificationProfiles.digestSentAt, state.digestSentAt),
        nullOr(notificationProfiles.digestClaimedAt, state.digestClaimedAt),
        nullOr(notificationProfiles.digestClaimedUntil, state.digestClaimedUntil),
      ),
    )
    .returning({ userId: notificationProfiles.userId });
  if (claimed.length === 0) return false;
  const ours = and(
    eq(notificationProfiles.userId, state.userId),
    eq(notificationProfiles.digestClaimedAt, periodEnd),
    eq(notificationProfiles.digestClaimedUntil, until),
  );
  let sent: boolean;
  try {
    sent = await sendDigest(app, {
      userId: state.userId,
      frequency: profile.digest,
      since: state.digestSentAt ?? new Date(periodEnd.getTime() - PERIOD[profile.digest]),
      periodEnd,
    });
  } catch (err) {
    // Given back: the next run tries again, about what happened until then.
    await app.db
      .update(notificationProfiles)
      .set({ digestClaimedAt: null, digestClaimedUntil: null })
      .where(ours);
    throw err;
  }
  await app.db
    .update(notificationProfiles)
    .set({ digestSentAt: periodEnd, digestClaimedAt: null, digestClaimedUntil: null })
    .where(ours);
  return sent;
}

/** The digest of what happened in (since, periodEnd]; false when nothing did. */
async function sendDigest(
  app: Ctx,
  {
    userId,
    frequency,
    since,
    periodEnd,
  }: { userId: number; frequency: 'daily' | 'weekly'; since: Date; periodEnd: Date },
) {
  const rows = await app.db
    .select({ n: notifications, application: applications.name })
    .from(notifications)
    .leftJoin(applications, eq(applications.id, notifications.applicationId))
    .where(
      and(
        eq(notifications.ownerId, userId),
        // "Send me a test" is not something that happened.
        ne(notifications.event, 'test'),
        gt(notifications.createdAt, since),
        lte(notifications.createdAt, periodEnd),
      ),
    )
    .orderBy(asc(notifications.id));
  if (rows.length === 0) return false;
  const groups = new Map<string, DigestGroup>();
  for (const { n, application } of rows) {
    const name = application ?? 'Your account';
    const group = groups.get(name) ?? { application: name, items: [] };
    group.items.push({
      event: n.event as TNotificationEvent,
      title: n.title,
      url: n.link ? new URL(n.link, app.config.publicUrl).href : null,
    });
    groups.set(name, group);
  }
  const [owner] = await app.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!owner) return false;
  await app.mailer.send(owner.email, {
    ...digestMail({
      frequency,
      groups: [...groups.values()],
      settingsUrl: new URL('/settings/notification-profile', app.config.publicUrl).href,
      unsubscribeUrl: unsubscribeUrl(app, userId, 'digest'),
    }),
    messageId: digestMessageId(app, userId, periodEnd),
  });
  return true;
}
