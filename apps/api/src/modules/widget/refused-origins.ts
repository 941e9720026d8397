import type { TRefusedOrigin } from '@cairn/contracts/widget';
import { preparedPerDb } from '@cairn/db/prepared';
import { widgetRefusedOrigins } from '@cairn/db/schema';
import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { Widget } from './widget-settings.ts';

/** Refused sites kept per application: enough to spot a typo or a forgotten subdomain. */
export const REFUSED_ORIGINS_KEPT = 10;

export type RefusalReason = TRefusedOrigin['reason'];

/** Why the widget refuses a site now, or null when it would show there. */
export function refusalOf(
  widget: Pick<Widget, 'enabled' | 'allowed_origins'>,
  origin: string,
): RefusalReason | null {
  if (!widget.enabled) return 'disabled';
  return widget.allowed_origins.includes(origin) ? null : 'origin_not_allowed';
}

/**
 * Records that a site's page asked for the widget and was refused. Each page view of such a site
 * asks, so a site already recorded within the minute is not written again; only the latest
 * `REFUSED_ORIGINS_KEPT` sites are kept (anyone can send any `Origin`).
 */
export async function recordRefusal(
  { db }: Pick<Ctx, 'db'>,
  applicationId: number,
  origin: string,
  reason: RefusalReason,
): Promise<void> {
  const written = await db
    .insert(widgetRefusedOrigins)
    .values({ applicationId, origin, reason })
    .onConflictDoUpdate({
      target: [widgetRefusedOrigins.applicationId, widgetRefusedOrigins.origin],
      set: { reason, lastRefusedAt: sql`now()` },
      setWhere: sql`${widgetRefusedOrigins.lastRefusedAt} < now() - interval '1 minute' OR ${widgetRefusedOrigins.reason} <> ${reason}`,
    })
    .returning({ origin: widgetRefusedOrigins.origin });
  if (!written.length) return;
  const kept = db
    .select({ origin: widgetRefusedOrigins.origin })
    .from(widgetRefusedOrigins)
    .where(eq(widgetRefusedOrigins.applicationId, applicationId))
    .orderBy(desc(widgetRefusedOrigins.lastRefusedAt))
    .limit(REFUSED_ORIGINS_KEPT);
  await db
    .delete(widgetRefusedOrigins)
    .where(
      and(
        eq(widgetRefusedOrigins.applicationId, applicationId),
        notInArray(widgetRefusedOrigins.origin, kept),
      ),
    );
}

// The API keys & widget page asks for them.
const refusedOf = preparedPerDb((db) =>
  db
    .select()
    .from(widgetRefusedOrigins)
    .where(eq(widgetRefusedOrigins.applicationId, sql.placeholder('applicationId')))
    .orderBy(desc(widgetRefusedOrigins.lastRefusedAt))
    .prepare('widget_refused_origins'),
);

/** The sites refused lately that the widget, as it is now, would still refuse; latest first. */
export async function listRefusedOrigins(
  { db }: Pick<Ctx, 'db'>,
  applicationId: number,
  widget: Pick<Widget, 'enabled' | 'allowed_origins'>,
): Promise<TRefusedOrigin[]> {
  const rows = await refusedOf(db).execute({ applicationId });
  return rows.flatMap((row) => {
    const reason = refusalOf(widget, row.origin);
    return reason ? [{ origin: row.origin, reason, last_refused_at: row.lastRefusedAt.toISOString() }] : [];
  });
}
