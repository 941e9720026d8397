import type { TNotificationEvent } from '@cairn/contracts/notifications';
import { applications, notificationProfiles, notifications, users } from '@cairn/db/schema';
import { and, asc, eq, gt, isNull, lte, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
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

/**
 * Sends the digests that are due now: at `digest_hour` in the owner's time zone (Mondays for
 * weekly), about what happened since the last one (or over the period, the first time). Nothing is
 * sent when nothing happened. Each owner's run is claimed first (`digest_sent_at`), so two
 * processes, or two runs within the hour, send it once; a run whose e-mail fails gives its claim
 * back, so the next run tries again. Returns the owners e-mailed.
 */
export async function sendDueDigests(app: FastifyInstance): Promise<number[]> {
  const now = app.notifications.clock();
  const candidates = await app.db
    .select({ userId: notificationProfiles.userId, digestSentAt: notificationProfiles.digestSentAt })
    .from(notificationProfiles)
    .where(sql`${notificationProfiles.profile}->>'digest' IN ('daily', 'weekly')`);
  const sent: number[] = [];
  for (const candidate of candidates) {
    try {
      if (await sendDigestIfDue(app, candidate.userId, candidate.digestSentAt, now))
        sent.push(candidate.userId);
    } catch (err) {
      app.log.error({ err, userId: candidate.userId }, 'digest failed');
    }
  }
  return sent;
}

async function sendDigestIfDue(app: FastifyInstance, userId: number, last: Date | null, now: Date) {
  const profile = await getProfile(app.db, userId);
  if (profile.digest === 'off') return false;
  const local = localHourAndDay(now, profile.time_zone);
  if (local.hour !== profile.digest_hour) return false;
  if (profile.digest === 'weekly' && local.weekday !== 'Mon') return false;
  if (last && now.getTime() - last.getTime() < MIN_GAP) return false;
  const claimed = await app.db
    .update(notificationProfiles)
    .set({ digestSentAt: now })
    .where(
      and(
        eq(notificationProfiles.userId, userId),
        last ? eq(notificationProfiles.digestSentAt, last) : isNull(notificationProfiles.digestSentAt),
      ),
    )
    .returning({ userId: notificationProfiles.userId });
  if (claimed.length === 0) return false;
  try {
    return await sendDigest(
      app,
      userId,
      profile.digest,
      last ?? new Date(now.getTime() - PERIOD[profile.digest]),
      now,
    );
  } catch (err) {
    // Only this run's claim is given back: a later run that claimed meanwhile keeps its own.
    await app.db
      .update(notificationProfiles)
      .set({ digestSentAt: last })
      .where(and(eq(notificationProfiles.userId, userId), eq(notificationProfiles.digestSentAt, now)));
    throw err;
  }
}

/** The digest of what happened in (since, now]; false when nothing did. */
async function sendDigest(
  app: FastifyInstance,
  userId: number,
  frequency: 'daily' | 'weekly',
  since: Date,
  now: Date,
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
        lte(notifications.createdAt, now),
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
  await app.mailer.send(
    owner.email,
    digestMail({
      frequency,
      groups: [...groups.values()],
      settingsUrl: new URL('/settings/notification-profile', app.config.publicUrl).href,
      unsubscribeUrl: unsubscribeUrl(app, userId, 'digest'),
    }),
  );
  return true;
}
