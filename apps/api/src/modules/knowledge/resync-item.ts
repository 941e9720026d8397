import { knowledgeItems } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findItem } from './find-item.ts';
import { serializeItem } from './serialize-item.ts';

/**
 * Queues an item again: a URL is fetched anew, anything else re-parsed and re-indexed. A run in
 * progress loses its lease (its writes stop counting); attempts start over.
 */
export async function resyncItem(
  app: Ctx,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  uuid: string,
) {
  const found = await findItem(app.db, owner.applicationId, uuid);
  const row = await app.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(knowledgeItems)
      .set({ status: 'queued', progress: 0, error: null, lease: null, attempts: 0, updatedAt: sql`now()` })
      .where(eq(knowledgeItems.id, found.id))
      .returning();
    await app.knowledge.enqueue([found.id], { tx });
    return updated!;
  });
  await app.knowledge.deps.publish({ ownerId: owner.ownerId, applicationUuid: owner.applicationUuid }, row);
  return serializeItem(row);
}
