import { knowledgeItems } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { deleteItemChunks } from '../../rag/index-chunks.ts';
import { deletePages } from '../../rag/site-pages.ts';
import { findItem } from './find-item.ts';
import { publishItem } from './publish-item.ts';
import { removeUnusedFiles } from './remove-unused-files.ts';

/**
 * Deletes an item, its chunks and (unless another item holds the same content) its stored
 * original. A worker busy with it loses its lease; its index write either waits for this delete
 * and cascades away, or fails on the missing row: no orphan chunks either way.
 */
export async function deleteItem(
  app: Ctx,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  uuid: string,
) {
  const row = await findItem(app.db, owner.applicationId, uuid);
  // A site import's pages go with their root.
  const pages = await app.db.transaction(async (tx) => {
    const rows = await tx.select().from(knowledgeItems).where(eq(knowledgeItems.crawlRootId, row.id));
    if (row.crawlOptions)
      await deletePages(
        tx,
        rows.map((page) => page.id),
      );
    return row.crawlOptions ? rows : [];
  });
  await deleteItemChunks(app.database, row.id);
  await app.db.delete(knowledgeItems).where(eq(knowledgeItems.id, row.id));
  await removeUnusedFiles(app, [row.filePath, ...pages.map((page) => page.filePath)]);
  for (const page of pages)
    await publishItem(
      app.realtime,
      { ownerId: owner.ownerId, applicationUuid: owner.applicationUuid },
      page,
      true,
    );
  await publishItem(
    app.realtime,
    { ownerId: owner.ownerId, applicationUuid: owner.applicationUuid },
    row,
    true,
  );
}
