import type { Db } from '@cairn/db/client';
import { knowledgeItems } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';

/** An item of the (already owner-checked) application, or a 404. */
export async function findItem(db: Db, applicationId: number, uuid: string) {
  const [row] = await db
    .select()
    .from(knowledgeItems)
    .where(and(eq(knowledgeItems.uuid, uuid), eq(knowledgeItems.applicationId, applicationId)));
  if (!row) throw notFound('Knowledge item not found.');
  return row;
}
