import type { Db } from '@cairn/db/client';
import { preparedPerDb } from '@cairn/db/prepared';
import { applications } from '@cairn/db/schema';
import { and, asc, eq, sql } from 'drizzle-orm';
import { notFound } from './app-error.ts';
import { oncePerPage, onPage } from './page-memo.ts';

// Nearly every request under /api/applications/{id}/ runs this lookup.
const ownedApplication = preparedPerDb((db) =>
  db
    .select()
    .from(applications)
    .where(
      and(
        eq(applications.uuid, sql.placeholder('uuid')),
        eq(applications.ownerId, sql.placeholder('ownerId')),
      ),
    )
    .prepare('owned_application'),
);

// Every signed-in page asks for them (the navigation call).
const ownedApplications = preparedPerDb((db) =>
  db
    .select()
    .from(applications)
    .where(eq(applications.ownerId, sql.placeholder('ownerId')))
    .orderBy(asc(applications.createdAt), asc(applications.id))
    .prepare('owned_applications'),
);

/** The owner's applications, oldest first (the rows, for callers that need their ids); one read per page. */
export function applicationRowsOf(db: Db, ownerId: number) {
  return oncePerPage(`applications:${ownerId}`, () => ownedApplications(db).execute({ ownerId }));
}

/**
 * The caller's application, or a 404 whether it is absent or someone else's. A page's calls share
 * one lookup (lib/page-memo.ts): the row is read-only to its callers. On a page it is taken from the
 * owner's applications, which the page's navigation call reads anyway (decision 111).
 */
export async function findApplication(db: Db, ownerId: number, uuid: string) {
  // The column is a uuid: PostgreSQL matches any letter case, and returns lower case.
  const app = onPage()
    ? (await applicationRowsOf(db, ownerId)).find((row) => row.uuid === uuid.toLowerCase())
    : (await ownedApplication(db).execute({ uuid, ownerId }))[0];
  if (!app) throw notFound('Application not found.');
  return app;
}
