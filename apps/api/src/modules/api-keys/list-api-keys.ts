import type { TApiKey } from '@cairn/contracts/api-keys';
import { preparedPerDb } from '@cairn/db/prepared';
import { apiKeys } from '@cairn/db/schema';
import { desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { findApplication } from '../../lib/find-application.ts';
import { serializeApiKey } from './serialize-api-key.ts';

// The API keys & widget page asks for them.
const keysOf = preparedPerDb((db) =>
  db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.applicationId, sql.placeholder('applicationId')))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .prepare('application_api_keys'),
);

/** The application's keys, newest first. */
export async function listApiKeys(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  appUuid: string,
): Promise<TApiKey[]> {
  const application = await findApplication(db, ownerId, appUuid);
  const rows = await keysOf(db).execute({ applicationId: application.id });
  return rows.map(serializeApiKey);
}
