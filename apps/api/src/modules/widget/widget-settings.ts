import {
  DEFAULT_WIDGET_SETTINGS,
  type TRefusedOrigin,
  type TUpdateWidgetRequest,
  type TWidgetConfig,
  type TWidgetSettings,
  type ZUpdateWidgetRequest,
  ZWidgetAppearance,
  ZWidgetLimits,
  ZWidgetTakeover,
} from '@cairn/contracts/widget';
import type { Db } from '@cairn/db/client';
import { preparedPerDb } from '@cairn/db/prepared';
import { widgets } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Ctx } from '../../lib/ctx.ts';
import type { ApplicationRow } from '../applications/serialize-application.ts';

type WidgetRow = typeof widgets.$inferSelect;
/** The widget with every setting filled in (stored choices over defaults). */
export type Widget = Omit<TWidgetSettings, 'embed_snippet' | 'updated_at' | 'refused_origins'> & {
  updatedAt: Date | null;
};

/**
 * Stored settings over the defaults. Each group is re-read with its schema and falls back to the
 * defaults as a whole if it no longer parses, so a setting added later never breaks an old row.
 */
export function widgetOf(application: Pick<ApplicationRow, 'name'>, row: WidgetRow | undefined): Widget {
  const stored = row?.settings ?? {};
  const appearance = ZWidgetAppearance.safeParse({
    ...DEFAULT_WIDGET_SETTINGS,
    title: application.name.slice(0, 60),
    ...stored,
  });
  const limits = ZWidgetLimits.safeParse({ ...DEFAULT_WIDGET_SETTINGS.limits, ...(stored.limits as object) });
  const takeover = ZWidgetTakeover.safeParse({
    ...DEFAULT_WIDGET_SETTINGS.takeover,
    ...(stored.takeover as object),
  });
  return {
    ...(appearance.success
      ? appearance.data
      : { ...DEFAULT_WIDGET_SETTINGS, title: application.name.slice(0, 60) }),
    enabled: row?.enabled ?? false,
    allowed_origins: row?.allowedOrigins ?? [],
    limits: limits.success ? limits.data : DEFAULT_WIDGET_SETTINGS.limits,
    takeover: takeover.success ? takeover.data : DEFAULT_WIDGET_SETTINGS.takeover,
    updatedAt: row?.updatedAt ?? null,
  };
}

// Every widget request and the API keys & widget page read it.
const widgetRowOf = preparedPerDb((db) =>
  db
    .select()
    .from(widgets)
    .where(eq(widgets.applicationId, sql.placeholder('applicationId')))
    .prepare('application_widget'),
);

export async function loadWidget(db: Db, application: ApplicationRow): Promise<Widget> {
  const [row] = await widgetRowOf(db).execute({ applicationId: application.id });
  return widgetOf(application, row);
}

/** The one `<script>` tag the owner pastes into their site. */
export const embedSnippet = (publicUrl: string, applicationUuid: string) =>
  `<script src="${new URL('/widget.js', publicUrl).href}" data-app="${applicationUuid}" async></script>`;

export function serializeWidget(
  widget: Widget,
  publicUrl: string,
  applicationUuid: string,
  refusedOrigins: TRefusedOrigin[],
): TWidgetSettings {
  const { updatedAt, ...settings } = widget;
  return {
    ...settings,
    refused_origins: refusedOrigins,
    embed_snippet: embedSnippet(publicUrl, applicationUuid),
    updated_at: updatedAt?.toISOString() ?? null,
  };
}

/** What the chat in the iframe shows. */
export function widgetConfigOf(widget: Widget): TWidgetConfig {
  return {
    title: widget.title,
    greeting: widget.greeting,
    suggested_questions: widget.suggested_questions,
    accent_color: widget.accent_color,
    position: widget.position,
    open_on_load: widget.open_on_load,
    show_sources: widget.show_sources,
    feedback_buttons: widget.feedback_buttons,
    takeover_enabled: widget.takeover.enabled,
  };
}

/** Applies a partial update (limits and takeover merge field by field) and stores the whole. */
export async function updateWidget(
  { db }: Pick<Ctx, 'db'>,
  application: ApplicationRow,
  input: z.output<typeof ZUpdateWidgetRequest>,
): Promise<Widget> {
  const current = await loadWidget(db, application);
  const { enabled, allowed_origins, limits, takeover, ...appearance } = input satisfies TUpdateWidgetRequest;
  const next = {
    ...current,
    ...appearance,
    limits: { ...current.limits, ...limits },
    takeover: { ...current.takeover, ...takeover },
  };
  const settings = {
    ...ZWidgetAppearance.parse(next),
    limits: next.limits,
    takeover: next.takeover,
  };
  const values = {
    enabled: enabled ?? current.enabled,
    allowedOrigins: allowed_origins ?? current.allowed_origins,
    settings,
  };
  const [row] = await db
    .insert(widgets)
    .values({ applicationId: application.id, ...values })
    .onConflictDoUpdate({ target: widgets.applicationId, set: { ...values, updatedAt: sql`now()` } })
    .returning();
  return widgetOf(application, row);
}
