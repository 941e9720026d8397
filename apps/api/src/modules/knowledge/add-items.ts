import type { FastifyInstance } from 'fastify';
import { insertItemRows, prepareItemRows } from './queue-items.ts';
import type { KnowledgeItemInput } from './read-items.ts';
import { serializeItem } from './serialize-item.ts';

/** Adds items to an application: rows and their ingestion jobs commit together. */
export async function addItems(
  app: FastifyInstance,
  owner: { applicationId: number; applicationUuid: string; ownerId: number },
  inputs: KnowledgeItemInput[],
) {
  const values = await prepareItemRows(app.knowledge.files, inputs);
  const rows = await app.db.transaction(async (tx) => {
    const inserted = await insertItemRows(tx, owner.applicationId, values);
    await app.knowledge.enqueue(
      inserted.map((r) => r.id),
      { tx },
    );
    return inserted;
  });
  for (const row of rows)
    await app.knowledge.deps.publish({ ownerId: owner.ownerId, applicationUuid: owner.applicationUuid }, row);
  return rows.map(serializeItem);
}
