import type { Db } from '@cairn/db/client';
import { modelProviders, providerModels } from '@cairn/db/schema';
import { and, asc, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';

/** The caller's provider, or a 404 whether it is absent or someone else's. */
export async function findModelProvider(db: Db, ownerId: number, uuid: string) {
  const [provider] = await db
    .select()
    .from(modelProviders)
    .where(and(eq(modelProviders.uuid, uuid), eq(modelProviders.ownerId, ownerId)));
  if (!provider) throw notFound('Model provider not found.');
  return provider;
}

export function modelsOf({ db }: Pick<Ctx, 'db'>, providerId: number) {
  return db
    .select()
    .from(providerModels)
    .where(eq(providerModels.providerId, providerId))
    .orderBy(asc(providerModels.modelType), asc(providerModels.name));
}
