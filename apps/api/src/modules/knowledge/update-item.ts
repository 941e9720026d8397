import type { TKnowledgeItem, TUpdateKnowledgeItemRequest } from '@cairn/contracts/knowledge';
import { knowledgeItems } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { findItem } from './find-item.ts';
import { type KnowledgeItemRow, serializeItem } from './serialize-item.ts';

/** Changes an item's settings (not its content: that is a re-sync); the owner's sockets are told. */
export async function updateItem(
  app: FastifyInstance,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  uuid: string,
  input: TUpdateKnowledgeItemRequest,
): Promise<TKnowledgeItem> {
  const found = await findItem(app.db, owner.applicationId, uuid);
  const [row] = await app.db
    .update(knowledgeItems)
    .set({
      ...(input.enabled !== undefined && { enabled: input.enabled }),
      ...(input.refresh_interval_hours !== undefined &&
        (await schedule(app, found, input.refresh_interval_hours))),
      updatedAt: sql`now()`,
    })
    .where(eq(knowledgeItems.id, found.id))
    .returning();
  await app.knowledge.deps.publish({ ownerId: owner.ownerId, applicationUuid: owner.applicationUuid }, row!);
  return serializeItem(row!);
}

/** A new re-sync interval: the next check one interval from now (or none). Only for URL items that lead their own schedule. */
async function schedule(app: FastifyInstance, item: KnowledgeItemRow, hours: number | null) {
  const refuse = (message: string) =>
    new AppError('invalid', `refresh_interval_hours: ${message}`, { refresh_interval_hours: [message] });
  if (item.type !== 'url') throw refuse('Only web pages (url items) are re-synced on a schedule.');
  if (item.crawlRootId) {
    const [root] = await app.db
      .select({ options: knowledgeItems.crawlOptions })
      .from(knowledgeItems)
      .where(eq(knowledgeItems.id, item.crawlRootId));
    if (root?.options)
      throw refuse("A page of a site import follows its site's schedule: set it on the site.");
  }
  const now = app.knowledge.deps.clock();
  return {
    refreshIntervalHours: hours,
    nextCheckAt: hours ? new Date(now.getTime() + hours * 3_600_000) : null,
  };
}
