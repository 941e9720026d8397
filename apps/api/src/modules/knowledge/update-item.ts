import type { TKnowledgeItem, TUpdateKnowledgeItemRequest } from '@cairn/contracts/knowledge';
import { knowledgeIndexStats, knowledgeItems } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import { AppError, fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { findItem } from './find-item.ts';
import { qaDocument } from './qa-document.ts';
import { titleOfQuestion } from './read-items.ts';
import { type KnowledgeItemRow, serializeItem } from './serialize-item.ts';

/**
 * Changes an item's settings (not its content: that is a re-sync), or a Q&A pair's question,
 * phrasings and answer, which are indexed again; the owner's sockets are told.
 */
export async function updateItem(
  app: Ctx,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  uuid: string,
  input: TUpdateKnowledgeItemRequest,
): Promise<TKnowledgeItem> {
  const found = await findItem(app.db, owner.applicationId, uuid);
  // Read before the transaction: on PGlite's one connection a query outside it would wait for it.
  const scheduled =
    input.refresh_interval_hours !== undefined
      ? await schedule(app, found, input.refresh_interval_hours)
      : undefined;
  const content = await qaContent(app, found, input);
  const row = await app.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(knowledgeItems)
      .set({
        ...(input.enabled !== undefined && { enabled: input.enabled }),
        ...scheduled,
        ...content,
        ...(content && { status: 'queued', progress: 0, error: null, lease: null, attempts: 0 }),
        updatedAt: sql`now()`,
      })
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
    if (content) await app.knowledge.enqueue([found.id], { tx });
    return updated!;
  });
  await app.knowledge.deps.publish({ ownerId: owner.ownerId, applicationUuid: owner.applicationUuid }, row);
  return serializeItem(row);
}

/** The columns a change of a pair's content writes (its document stored anew), or none. */
async function qaContent(app: Ctx, item: KnowledgeItemRow, input: TUpdateKnowledgeItemRequest) {
  const { question, answer, alternatives } = input;
  if (question === undefined && answer === undefined && alternatives === undefined) return undefined;
  if (item.type !== 'qa') {
    const field = question !== undefined ? 'question' : answer !== undefined ? 'answer' : 'alternatives';
    throw fieldError(field, 'Only Q&A items have a question, answer and alternatives');
  }
  const pair = {
    question: question ?? item.qaQuestion ?? '',
    answer: answer ?? item.qaAnswer ?? '',
    alternatives: alternatives ?? item.qaAlternatives ?? [],
  };
  // A title that was the question follows it; one the owner chose stays.
  const titled = item.title !== titleOfQuestion(item.qaQuestion ?? '');
  const data = Buffer.from(qaDocument(pair), 'utf8');
  return {
    qaQuestion: pair.question,
    qaAnswer: pair.answer,
    qaAlternatives: pair.alternatives,
    title: titled ? item.title : titleOfQuestion(pair.question),
    filePath: await app.knowledge.files.put(data),
    sizeBytes: data.length,
  };
}

/** A new re-sync interval: the next check one interval from now (or none). Only for URL items that lead their own schedule. */
async function schedule(app: Ctx, item: KnowledgeItemRow, hours: number | null) {
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
