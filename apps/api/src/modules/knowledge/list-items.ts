import { knowledgeItems } from '@cairn/db/schema';
import { asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeItem } from './serialize-item.ts';
import { NO_SITE, siteViews } from './site-view.ts';

/** The application's items, oldest first (the caller has checked ownership). */
export async function listItems({ db }: Pick<Ctx, 'db'>, applicationId: number) {
  const rows = await db
    .select()
    .from(knowledgeItems)
    .where(eq(knowledgeItems.applicationId, applicationId))
    .orderBy(asc(knowledgeItems.createdAt), asc(knowledgeItems.id));
  const sites = await siteViews(db, rows);
  return rows.map((row) => serializeItem(row, sites.get(row.id) ?? NO_SITE));
}
