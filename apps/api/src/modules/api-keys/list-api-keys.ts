import type { TApiKey } from '@cairn/contracts/api-keys';
import { apiKeys } from '@cairn/db/schema';
import { desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findApplication } from '../../lib/find-application.ts';
import { serializeApiKey } from './serialize-api-key.ts';

/** The application's keys, newest first. */
export async function listApiKeys(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  appUuid: string,
): Promise<TApiKey[]> {
  const application = await findApplication(db, ownerId, appUuid);
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.applicationId, application.id))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(serializeApiKey);
}
