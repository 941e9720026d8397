import { apiKeys } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { findApplication } from '../../lib/find-application.ts';

/** Deletes the key; every process looks keys up per request, so it stops working at once. */
export async function deleteApiKey(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  appUuid: string,
  keyUuid: string,
): Promise<void> {
  const application = await findApplication(db, ownerId, appUuid);
  const deleted = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.uuid, keyUuid), eq(apiKeys.applicationId, application.id)))
    .returning({ id: apiKeys.id });
  if (!deleted.length) throw notFound('API key not found.');
}
