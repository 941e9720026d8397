import { randomUUID } from 'node:crypto';
import { copyName, type TDuplicateApplicationRequest } from '@cairn/contracts/applications';
import type { Db } from '@cairn/db/client';
import { applications, knowledgeItems } from '@cairn/db/schema';
import { and, asc, eq, sql } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { POSTINGS_CTE } from '../../rag/index-chunks.ts';
import type { EnqueueItems, KnowledgeItemRow } from '../model-providers/reindex-application.ts';
import { serializeApplication } from './serialize-application.ts';

/**
 * Copies an application's settings, models, widget appearance and knowledge into a new application
 * of the same owner; conversations, API keys, integrations and webhooks stay with the original.
 *
 * Indexed items are copied with their passages, postings and vectors (no re-parsing, no second bill
 * from an embedding provider, searchable the moment the copy exists); the stored originals are
 * content-addressed, so the copies share them. Items still queued or processing are queued again
 * in the copy; failed items are copied with their reason. One transaction: no half copy.
 * The widget is copied switched off: a second live widget is the owner's decision.
 */
export async function duplicateApplication(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  uuid: string,
  input: TDuplicateApplicationRequest,
  enqueue: EnqueueItems,
): Promise<{ application: ReturnType<typeof serializeApplication>; queued: KnowledgeItemRow[] }> {
  return db.transaction(async (tx) => {
    const [source] = await tx
      .select()
      .from(applications)
      .where(and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId)));
    if (!source) throw notFound('Application not found.');
    const [copy] = await tx
      .insert(applications)
      .values({
        ownerId,
        name: input.name ?? copyName(source.name),
        llmModels: source.llmModels,
        instructions: source.instructions,
        temperature: source.temperature,
        strictness: source.strictness,
        noAnswerMessage: source.noAnswerMessage,
        conversationRetentionDays: source.conversationRetentionDays,
      })
      .returning();
    await tx.execute(sql`
      INSERT INTO widgets (application_id, enabled, allowed_origins, settings)
      SELECT ${copy!.id}, false, allowed_origins, settings FROM widgets WHERE application_id = ${source.id}`);
    const queued = await copyKnowledge(tx, source.id, copy!.id);
    await enqueue(
      queued.map((item) => item.id),
      { tx },
    );
    return { application: serializeApplication(copy!), queued };
  });
}

/** Copies the items of one application into another; resolves to the copies that must be (re)ingested. */
async function copyKnowledge(tx: Db, fromId: number, toId: number): Promise<KnowledgeItemRow[]> {
  const items = await tx
    .select()
    .from(knowledgeItems)
    .where(eq(knowledgeItems.applicationId, fromId))
    .orderBy(asc(knowledgeItems.createdAt), asc(knowledgeItems.id));
  if (items.length === 0) return [];
  const newUuid = new Map(items.map((item) => [item.id, randomUUID()]));
  const copies = await tx
    .insert(knowledgeItems)
    .values(
      items.map((item) => {
        const settled = item.status === 'ready' || item.status === 'failed';
        return {
          uuid: newUuid.get(item.id)!,
          applicationId: toId,
          type: item.type,
          title: item.title,
          source: item.source,
          filePath: item.filePath,
          mimeType: item.mimeType,
          sizeBytes: item.sizeBytes,
          status: settled ? item.status : ('queued' as const),
          progress: settled ? item.progress : 0,
          error: settled ? item.error : null,
          language: item.language,
          chunkCount: settled ? item.chunkCount : 0,
          // A failure's kind (retryable or not) is read from its attempts.
          attempts: settled ? item.attempts : 0,
          crawlDepth: item.crawlDepth,
          indexedAt: settled ? item.indexedAt : null,
          // The list keeps the original's order.
          createdAt: item.createdAt,
        };
      }),
    )
    .returning();
  const copyByUuid = new Map(copies.map((copy) => [copy.uuid, copy]));
  const pairs = items.map((item) => ({
    old_id: item.id,
    new_id: copyByUuid.get(newUuid.get(item.id)!)!.id,
    old_root: item.crawlRootId,
    ready: item.status === 'ready',
  }));
  await tx.execute(sql`
    WITH pairs AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p(old_id int, new_id int, old_root int, ready boolean)
    ),
    roots AS (
      UPDATE knowledge_items k SET crawl_root_id = root.new_id
      FROM pairs p JOIN pairs root ON root.old_id = p.old_root
      WHERE k.id = p.new_id
    ),
    added AS (
      INSERT INTO knowledge_chunks
        (item_id, application_id, ordinal, content, page, heading, start_offset, end_offset,
         language, ts_config, token_count, tsv)
      SELECT p.new_id, ${toId}, c.ordinal, c.content, c.page, c.heading, c.start_offset, c.end_offset,
             c.language, c.ts_config, c.token_count, c.tsv
      FROM knowledge_chunks c JOIN pairs p ON p.old_id = c.item_id AND p.ready
      RETURNING id, item_id, application_id, ordinal, ts_config, token_count, tsv
    ),
    ${sql.raw(POSTINGS_CTE)},
    vectors AS (
      INSERT INTO knowledge_chunk_vectors (chunk_id, application_id, model_id, dimensions, embedding)
      SELECT a.id, a.application_id, v.model_id, v.dimensions, v.embedding
      FROM added a
      JOIN pairs p ON p.new_id = a.item_id
      JOIN knowledge_chunks c ON c.item_id = p.old_id AND c.ordinal = a.ordinal
      JOIN knowledge_chunk_vectors v ON v.chunk_id = c.id
    )
    SELECT count(*) FROM added`);
  return copies.filter((copy) => copy.status === 'queued');
}
