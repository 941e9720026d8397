import type { Db } from '@cairn/db/client';
import type { Ctx } from '../../lib/ctx.ts';
import { type ItemRow, insertItemRows, prepareItemRows } from './queue-items.ts';
import type { KnowledgeItemInput } from './read-items.ts';
import { serializeItem } from './serialize-item.ts';

/**
 * Adds items to an application: rows and their ingestion jobs commit together, with whatever
 * `alsoInTransaction` records about them (the inbox marks a question answered by its new item).
 */
export async function addItems(
  app: Ctx,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  inputs: KnowledgeItemInput[],
  alsoInTransaction?: (tx: Db, rows: ItemRow[]) => Promise<void>,
) {
  const values = await prepareItemRows(app.knowledge.files, inputs);
  const rows = await app.db.transaction(async (tx) => {
    const inserted = await insertItemRows(tx, owner.applicationId, values);
    await app.knowledge.enqueue(
      inserted.map((r) => r.id),
      { tx },
    );
    await alsoInTransaction?.(tx, inserted);
    return inserted;
  });
  // All at once: each publish reaches this process's sockets before its first await, so every
  // "queued" goes out before a worker, which can take an item as soon as the commit lands, says
  // "processing" about it.
  await Promise.all(
    rows.map((row) =>
      app.knowledge.deps.publish({ ownerId: owner.ownerId, applicationUuid: owner.applicationUuid }, row),
    ),
  );
  return rows.map((row) => serializeItem(row));
}
