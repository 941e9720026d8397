import type { TKbUpdateEvent } from '@cairn/contracts/knowledge';
import { knowledgeItems } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import type { ItemOwner } from '../../lib/product-events.ts';
import { type KnowledgeItemRow, serializeItem } from './serialize-item.ts';
import { NO_SITE, type SiteView, siteViews } from './site-view.ts';

/** Tells the owner's open sockets (in every process) that an item changed. */
export async function publishItem(
  realtime: Ctx['realtime'],
  owner: ItemOwner,
  row: KnowledgeItemRow,
  deleted = false,
  site: SiteView = NO_SITE,
): Promise<void> {
  const data: TKbUpdateEvent = {
    application_uuid: owner.applicationUuid,
    item: serializeItem(row, site),
    ...(deleted && { deleted: true }),
  };
  await realtime.publish(owner.ownerId, { event: 'kb_updates', data });
}

/**
 * Publishes an item with its site view; a page of a site import that moved on (fetched, indexed,
 * failed, gone) also publishes its root, whose counts are the import's live progress.
 */
export async function publishSiteItem(
  app: Ctx,
  owner: ItemOwner,
  row: KnowledgeItemRow,
  deleted = false,
): Promise<void> {
  const views = await siteViews(app.db, [row]);
  await publishItem(app.realtime, owner, row, deleted, views.get(row.id) ?? NO_SITE);
  if (!row.crawlRootId || (row.status === 'queued' && !deleted)) return;
  const [root] = await app.db.select().from(knowledgeItems).where(eq(knowledgeItems.id, row.crawlRootId));
  if (!root?.crawlOptions) return;
  await publishItem(
    app.realtime,
    owner,
    root,
    false,
    (await siteViews(app.db, [root])).get(root.id) ?? NO_SITE,
  );
}
