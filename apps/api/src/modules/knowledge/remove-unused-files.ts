import { knowledgeItems } from '@cairn/db/schema';
import { inArray } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

/**
 * After items were deleted: removes those of their stored originals no remaining item holds (the
 * store is content-addressed, so the same bytes uploaded elsewhere share one file). A file that
 * cannot be removed is logged, not raised: the deletion the person asked for has happened.
 */
export async function removeUnusedFiles(app: Ctx, paths: readonly (string | null)[]): Promise<void> {
  const candidates = [...new Set(paths.filter((p): p is string => p !== null))];
  if (candidates.length === 0) return;
  const used = new Set(
    (
      await app.db
        .selectDistinct({ path: knowledgeItems.filePath })
        .from(knowledgeItems)
        .where(inArray(knowledgeItems.filePath, candidates))
    ).map((row) => row.path),
  );
  for (const path of candidates) {
    if (used.has(path)) continue;
    await app.knowledge.files
      .remove(path)
      .catch((err: unknown) => app.log.warn({ err }, 'could not remove a deleted item’s stored file'));
  }
}
