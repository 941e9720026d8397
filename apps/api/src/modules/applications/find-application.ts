import type { Db } from '@cairn/db/client';
import { applications } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';

/** The caller's application, or a 404 whether it is absent or someone else's. */
export async function findApplication(db: Db, ownerId: number, uuid: string) {
  const [app] = await db
    .select()
    .from(applications)
    .where(and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId)));
  if (!app) throw notFound('Application not found.');
  return app;
}
