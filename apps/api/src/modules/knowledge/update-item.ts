import type { TKnowledgeItem, TUpdateKnowledgeItemRequest } from '@cairn/contracts/knowledge';
import { knowledgeIndexStats, knowledgeItems } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { findItem } from './find-item.ts';
import { serializeItem } from './serialize-item.ts';

/** Changes an item's settings (not its content: that is a re-sync); the owner's sockets are told. */
export async function updateItem(
  app: FastifyInstance,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  uuid: string,
  input: TUpdateKnowledgeItemRequest,
): Promise<TKnowledgeItem> {
  const found = await findItem(app.db, owner.applicationId, uuid);
  const [row] = await app.db.transaction(async (tx) => {
    const updated = await tx
      .update(knowledgeItems)
      .set({ ...(input.enabled !== undefined && { enabled: input.enabled }), updatedAt: sql`now()` })
      .where(eq(knowledgeItems.id, found.id))
      .returning();
    // Every process's in-process copy of the postings knows which items are off as of its
    // version: a new version makes them all answer from SQL (which reads `enabled`) until rebuilt.
    // Bumped whenever `enabled` is given: comparing with the value read before could miss a
    // concurrent switch.
    if (input.enabled !== undefined) {
      await tx
        .update(knowledgeIndexStats)
        .set({ version: sql`${knowledgeIndexStats.version} + 1` })
        .where(eq(knowledgeIndexStats.applicationId, owner.applicationId));
    }
    return updated;
  });
  await app.knowledge.deps.publish({ ownerId: owner.ownerId, applicationUuid: owner.applicationUuid }, row!);
  return serializeItem(row!);
}
