import { preparedPerDb } from '@cairn/db/prepared';
import { knowledgeItems } from '@cairn/db/schema';
import { asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeItem } from './serialize-item.ts';
import { NO_SITE, siteViews } from './site-view.ts';

// The knowledge base's and the overview's pages ask for them.
const itemsOf = preparedPerDb((db) =>
  db
    .select()
    .from(knowledgeItems)
    .where(eq(knowledgeItems.applicationId, sql.placeholder('applicationId')))
    .orderBy(asc(knowledgeItems.createdAt), asc(knowledgeItems.id))
    .prepare('application_items'),
);

/** The application's items, oldest first (the caller has checked ownership). */
export async function listItems({ db }: Pick<Ctx, 'db'>, applicationId: number) {
  const rows = await itemsOf(db).execute({ applicationId });
  const sites = await siteViews(db, rows);
  return rows.map((row) => serializeItem(row, sites.get(row.id) ?? NO_SITE));
}
