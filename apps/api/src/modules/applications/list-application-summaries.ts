import type { TApplicationSummary } from '@cairn/contracts/applications';
import { preparedPerDb } from '@cairn/db/prepared';
import { apiKeys, applications, chatrooms, knowledgeItems, widgets } from '@cairn/db/schema';
import { asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeApplication } from './serialize-application.ts';

const countOf = (table: typeof knowledgeItems | typeof chatrooms | typeof apiKeys) =>
  sql<number>`(SELECT count(*)::int FROM ${table} WHERE ${table.applicationId} = ${applications.id})`;

// The overview and the applications page ask for them.
const summariesOf = preparedPerDb((db) =>
  db
    .select({
      application: applications,
      knowledgeItems: countOf(knowledgeItems),
      conversations: countOf(chatrooms),
      apiKeys: countOf(apiKeys),
      widgetEnabled: sql<boolean>`coalesce(${widgets.enabled}, false)`,
    })
    .from(applications)
    .leftJoin(widgets, eq(widgets.applicationId, applications.id))
    .where(eq(applications.ownerId, sql.placeholder('ownerId')))
    .orderBy(asc(applications.createdAt), asc(applications.id))
    .prepare('application_summaries'),
);

/** The owner's applications, oldest first, each with what it holds (one statement). */
export async function listApplicationSummaries(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
): Promise<TApplicationSummary[]> {
  const rows = await summariesOf(db).execute({ ownerId });
  return rows.map((row) => ({
    ...serializeApplication(row.application),
    counts: {
      knowledge_items: row.knowledgeItems,
      conversations: row.conversations,
      api_keys: row.apiKeys,
      widget_enabled: row.widgetEnabled,
    },
  }));
}
