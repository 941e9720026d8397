import type { Db } from '@cairn/db/client';
import { preparedPerDb } from '@cairn/db/prepared';
import { applications } from '@cairn/db/schema';
import { asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeApplication } from './serialize-application.ts';

// Every signed-in page asks for them (the navigation call).
const ownedApplications = preparedPerDb((db) =>
  db
    .select()
    .from(applications)
    .where(eq(applications.ownerId, sql.placeholder('ownerId')))
    .orderBy(asc(applications.createdAt), asc(applications.id))
    .prepare('owned_applications'),
);

/** The owner's applications, oldest first (the rows, for callers that need their ids). */
export function applicationRowsOf(db: Db, ownerId: number) {
  return ownedApplications(db).execute({ ownerId });
}

export async function listApplications({ db }: Pick<Ctx, 'db'>, ownerId: number) {
  return (await applicationRowsOf(db, ownerId)).map(serializeApplication);
}
