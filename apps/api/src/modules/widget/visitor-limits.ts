import { createHmac } from 'node:crypto';
import { widgetUsageHours } from '@cairn/db/schema';
import { and, eq, lt, sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import type { VisitorContext } from './visitor-auth.ts';

/** The address as a keyed hash: limits can count it without Cairn keeping visitors' addresses. */
const ipHashOf = (secretKey: string, ip: string) =>
  createHmac('sha256', secretKey).update(`cairn/widget/ip/${ip}`).digest('base64url');

/**
 * The messages of a key in the window of `hours` hours before now, from its hourly counts: the
 * hours wholly inside count whole, the hour the window starts in counts for the part of it inside
 * (its messages taken as spread evenly over it), and the sum is rounded up, so messages a moment
 * apart across an hour's turn still count whole. At most `hours + 1` rows.
 */
const inWindow = (kind: 'visitor' | 'ip', hours: number) =>
  `ceil(coalesce(sum(messages * least(1, greatest(0, ${hours + 1} + extract(epoch FROM hour - now()) / 3600)))
     FILTER (WHERE key_kind = '${kind}'), 0))`;

/**
 * Records a visitor's message if the visitor and the address are under the owner's limits for the
 * last hour and day, in one statement (count and upsert of this hour's counts); over a limit, a 429
 * whose detail is the owner's message. The statement reads at most 25 hourly rows per key, however
 * many messages an address sends (a site behind one NAT sends them all from one). Simultaneous
 * messages may pass a limit by a few: acceptable for a courtesy limit, and it needs no lock.
 */
export async function takeVisitorMessage(app: Ctx, visitor: VisitorContext, ip: string) {
  const { application, widget, claims } = visitor;
  const limits = widget.limits;
  const ipHash = ipHashOf(app.config.secretKey, ip);
  const { rows } = await app.database.query(
    `WITH recent AS (
       SELECT ${inWindow('visitor', 1)} AS visitor_hour, ${inWindow('visitor', 24)} AS visitor_day,
              ${inWindow('ip', 1)} AS ip_hour, ${inWindow('ip', 24)} AS ip_day
       FROM widget_usage_hours
       WHERE application_id = $1 AND hour > now() - interval '25 hours'
         AND ((key_kind = 'visitor' AND key = $2) OR (key_kind = 'ip' AND key = $3))
     )
     INSERT INTO widget_usage_hours AS counted (application_id, key_kind, key, hour)
     SELECT $1, k.kind, k.key, date_trunc('hour', now(), 'UTC')
     FROM recent, (VALUES ('visitor', $2::text), ('ip', $3::text)) AS k (kind, key)
     WHERE visitor_hour < $4 AND visitor_day < $5 AND ip_hour < $6 AND ip_day < $7
     ON CONFLICT (application_id, key_kind, key, hour) DO UPDATE SET messages = counted.messages + 1
     RETURNING 1`,
    [
      application.id,
      claims.v,
      ipHash,
      limits.visitor_messages_per_hour,
      limits.visitor_messages_per_day,
      limits.ip_messages_per_hour,
      limits.ip_messages_per_day,
    ],
  );
  if (!rows.length) {
    throw new AppError('rate_limited', limits.limit_message, undefined, { 'retry-after': '3600' });
  }
  // Hours before the day's window count for nothing; an occasional sweep keeps the table small.
  if (Math.random() < 0.01) await sweepWidgetUsage(app, application.id);
}

/** Deletes an application's hourly counts that no limit reads any more (older than 25 hours). */
export async function sweepWidgetUsage({ db }: Pick<Ctx, 'db'>, applicationId: number) {
  await db
    .delete(widgetUsageHours)
    .where(
      and(
        eq(widgetUsageHours.applicationId, applicationId),
        lt(widgetUsageHours.hour, sql`now() - interval '25 hours'`),
      ),
    );
}
