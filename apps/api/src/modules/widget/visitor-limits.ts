import { createHmac } from 'node:crypto';
import { widgetUsage } from '@cairn/db/schema';
import { and, eq, lt, sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import type { VisitorContext } from './visitor-auth.ts';

/** The address as a keyed hash: limits can count it without Cairn keeping visitors' addresses. */
const ipHashOf = (secretKey: string, ip: string) =>
  createHmac('sha256', secretKey).update(`cairn/widget/ip/${ip}`).digest('base64url');

/**
 * Records a visitor's message if the visitor and the address are under the owner's limits for the
 * last hour and day, in one statement (count and insert); over a limit, a 429 whose detail is the
 * owner's message. Simultaneous messages may pass a limit by a few: acceptable for a courtesy
 * limit, and it needs no lock.
 */
export async function takeVisitorMessage(app: Ctx, visitor: VisitorContext, ip: string) {
  const { application, widget, claims } = visitor;
  const limits = widget.limits;
  const ipHash = ipHashOf(app.config.secretKey, ip);
  const { rows } = await app.database.query<{ id: number }>(
    `WITH recent AS (
       SELECT
         count(*) FILTER (WHERE visitor_uuid = $2 AND created_at > now() - interval '1 hour') AS visitor_hour,
         count(*) FILTER (WHERE visitor_uuid = $2) AS visitor_day,
         count(*) FILTER (WHERE ip_hash = $3 AND created_at > now() - interval '1 hour') AS ip_hour,
         count(*) FILTER (WHERE ip_hash = $3) AS ip_day
       FROM widget_usage
       WHERE application_id = $1 AND created_at > now() - interval '1 day' AND (visitor_uuid = $2 OR ip_hash = $3)
     )
     INSERT INTO widget_usage (application_id, visitor_uuid, ip_hash)
     SELECT $1, $2, $3 FROM recent
     WHERE visitor_hour < $4 AND visitor_day < $5 AND ip_hour < $6 AND ip_day < $7
     RETURNING id`,
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
  // Rows older than a day count for nothing; an occasional sweep keeps the table small.
  if (Math.random() < 0.01) {
    await app.db
      .delete(widgetUsage)
      .where(
        and(
          eq(widgetUsage.applicationId, application.id),
          lt(widgetUsage.createdAt, sql`now() - interval '1 day'`),
        ),
      );
  }
}
