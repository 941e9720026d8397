import { knowledgeItems } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { deleteItemChunks } from '../../rag/index-chunks.ts';
import { findItem } from './find-item.ts';
import { publishItem } from './publish-item.ts';
import { removeUnusedFiles } from './remove-unused-files.ts';

/**
 * Deletes an item, its chunks and (unless another item holds the same content) its stored
 * original. A worker busy with it loses its lease; its index write either waits for this delete
 * and cascades away, or fails on the missing row: no orphan chunks either way.
 */
export async function deleteItem(
  app: FastifyInstance,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  uuid: string,
) {
  const row = await findItem(app.db, owner.applicationId, uuid);
  await deleteItemChunks(app.database, row.id);
  await app.db.delete(knowledgeItems).where(eq(knowledgeItems.id, row.id));
  await removeUnusedFiles(app, [row.filePath]);
  await publishItem(
    app.realtime,
    { ownerId: owner.ownerId, applicationUuid: owner.applicationUuid },
    row,
    true,
  );
}
