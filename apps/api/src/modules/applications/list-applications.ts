import type { Db } from '@cairn/db/client';
import { applications } from '@cairn/db/schema';
import { asc, eq } from 'drizzle-orm';
import { serializeApplication } from './serialize-application.ts';

export async function listApplications(db: Db, ownerId: number) {
  const rows = await db
    .select()
    .from(applications)
    .where(eq(applications.ownerId, ownerId))
    .orderBy(asc(applications.createdAt), asc(applications.id));
  return rows.map(serializeApplication);
}
