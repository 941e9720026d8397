import type { Db } from '@cairn/db/client';
import { preparedPerDb } from '@cairn/db/prepared';
import { applications } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { notFound } from './app-error.ts';
import { oncePerPage } from './page-memo.ts';

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

/**
 * The caller's application, or a 404 whether it is absent or someone else's. A page's calls share
 * one lookup (lib/page-memo.ts): the row is read-only to its callers.
 */
export function findApplication(db: Db, ownerId: number, uuid: string) {
  return oncePerPage(`application:${ownerId}:${uuid}`, async () => {
    const [app] = await ownedApplication(db).execute({ uuid, ownerId });
    if (!app) throw notFound('Application not found.');
    return app;
  });
}
