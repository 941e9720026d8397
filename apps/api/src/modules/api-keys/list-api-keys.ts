import type { TApiKey } from '@cairn/contracts/api-keys';
import type { Db } from '@cairn/db/client';
import { apiKeys } from '@cairn/db/schema';
import { desc, eq } from 'drizzle-orm';
import { findApplication } from '../../lib/find-application.ts';
import { serializeApiKey } from './serialize-api-key.ts';

/** The application's keys, newest first. */
export async function listApiKeys(db: Db, ownerId: number, appUuid: string): Promise<TApiKey[]> {
  const application = await findApplication(db, ownerId, appUuid);
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.applicationId, application.id))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(serializeApiKey);
}
