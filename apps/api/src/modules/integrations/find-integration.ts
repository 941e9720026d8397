import type { Db } from '@cairn/db/client';
import { applications, integrations } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';

export type IntegrationRow = typeof integrations.$inferSelect;
/** An integration with what its answer shows of its application. */
export interface IntegrationWithApp {
  integration: IntegrationRow;
  application: { uuid: string; name: string };
}

const columns = {
  integration: integrations,
  application: { uuid: applications.uuid, name: applications.name },
};

/** The caller's integration, or a 404 whether it is absent or someone else's. */
export async function findIntegration(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  uuid: string,
): Promise<IntegrationWithApp> {
  const [row] = await db
    .select(columns)
    .from(integrations)
    .innerJoin(applications, eq(applications.id, integrations.applicationId))
    .where(and(eq(integrations.uuid, uuid), eq(integrations.ownerId, ownerId)));
  if (!row) throw notFound('Integration not found.');
  return row;
}

/** The caller's integrations, oldest first. */
export const listIntegrationRows = (db: Db, ownerId: number): Promise<IntegrationWithApp[]> =>
  db
    .select(columns)
    .from(integrations)
    .innerJoin(applications, eq(applications.id, integrations.applicationId))
    .where(eq(integrations.ownerId, ownerId))
    .orderBy(integrations.createdAt, integrations.id);

/** An integration of one kind by its uuid alone: for the inbound endpoints, which a signature authenticates. */
export async function findInboundIntegration(
  { db }: Pick<Ctx, 'db'>,
  uuid: string,
  kind: 'slack' | 'telegram',
) {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.uuid, uuid), eq(integrations.kind, kind)));
  return row;
}
