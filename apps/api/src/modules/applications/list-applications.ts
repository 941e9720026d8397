import type { Db } from '@cairn/db/client';
import { applications } from '@cairn/db/schema';
import { asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeApplication } from './serialize-application.ts';

/** The owner's applications, oldest first (the rows, for callers that need their ids). */
export function applicationRowsOf(db: Db, ownerId: number) {
  return db
    .select()
    .from(applications)
    .where(eq(applications.ownerId, ownerId))
    .orderBy(asc(applications.createdAt), asc(applications.id));
}

export async function listApplications({ db }: Pick<Ctx, 'db'>, ownerId: number) {
  return (await applicationRowsOf(db, ownerId)).map(serializeApplication);
}
