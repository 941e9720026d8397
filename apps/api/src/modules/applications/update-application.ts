import type { Db } from '@cairn/db/client';
import { applications } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import { serializeApplication } from './serialize-application.ts';

export async function updateApplication(
  db: Db,
  ownerId: number,
  uuid: string,
  input: { name?: string | undefined },
) {
  const [row] = await db
    .update(applications)
    .set({ ...(input.name !== undefined && { name: input.name }), updatedAt: sql`now()` })
    .where(and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId)))
    .returning();
  if (!row) throw notFound('Application not found.');
  return serializeApplication(row);
}

export async function deleteApplication(db: Db, ownerId: number, uuid: string) {
  const [row] = await db
    .delete(applications)
    .where(and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId)))
    .returning({ id: applications.id });
  if (!row) throw notFound('Application not found.');
}
