import type { Db } from '@cairn/db/client';
import { applications } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { notFound } from './app-error.ts';

function prepareLookup(db: Db) {
  return db
    .select()
    .from(applications)
    .where(
      and(
        eq(applications.uuid, sql.placeholder('uuid')),
        eq(applications.ownerId, sql.placeholder('ownerId')),
      ),
    )
    .prepare('owned_application');
}

// Nearly every request under /api/applications/{id}/ runs this lookup: it is built once per database
// handle (a transaction is a handle of its own), not at every call.
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

/** The caller's application, or a 404 whether it is absent or someone else's. */
export async function findApplication(db: Db, ownerId: number, uuid: string) {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = prepareLookup(db);
    lookups.set(db, lookup);
  }
  const [app] = await lookup.execute({ uuid, ownerId });
  if (!app) throw notFound('Application not found.');
  return app;
}
