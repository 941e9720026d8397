import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import type { Db } from '@cairn/db/client';
import { applications } from '@cairn/db/schema';
import type { Ctx } from '../../lib/ctx.ts';
import { insertItemRows, type PreparedItemRow } from '../knowledge/queue-items.ts';
import { serializeApplication } from './serialize-application.ts';

export interface InitialKnowledge {
  rows: PreparedItemRow[];
  /** Queues ingestion jobs inside the given transaction. */
  enqueue(itemIds: number[], options: { tx: Db }): Promise<void>;
}

/**
 * Creates an application and, when given, its first knowledge items with their ingestion jobs —
 * all in one transaction: nothing is half-created.
 */
export async function createApplication(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  input: { name: string },
  knowledge?: InitialKnowledge,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(applications)
      .values({ ownerId, name: input.name, llmModels: DEFAULT_LLM_MODELS })
      .returning();
    const items = knowledge ? await insertItemRows(tx, row!.id, knowledge.rows) : [];
    if (knowledge && items.length > 0) {
      await knowledge.enqueue(
        items.map((item) => item.id),
        { tx },
      );
    }
    return { application: serializeApplication(row!), items };
  });
}
