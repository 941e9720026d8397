import { modelProviders, providerModels } from '@cairn/db/schema';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeModelProvider } from './serialize-model-provider.ts';

export async function listModelProviders({ db }: Pick<Ctx, 'db'>, ownerId: number) {
  const providers = await db
    .select()
    .from(modelProviders)
    .where(eq(modelProviders.ownerId, ownerId))
    .orderBy(asc(modelProviders.createdAt), asc(modelProviders.id));
  if (!providers.length) return [];
  const models = await db
    .select()
    .from(providerModels)
    .where(
      inArray(
        providerModels.providerId,
        providers.map((p) => p.id),
      ),
    )
    .orderBy(asc(providerModels.modelType), asc(providerModels.name));
  return providers.map((p) => serializeModelProvider(p, models));
}
