import { preparedPerDb } from '@cairn/db/prepared';
import { modelProviders, providerModels } from '@cairn/db/schema';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { serializeModelProvider } from './serialize-model-provider.ts';

// The model settings page asks for both.
const providersOf = preparedPerDb((db) =>
  db
    .select()
    .from(modelProviders)
    .where(eq(modelProviders.ownerId, sql.placeholder('ownerId')))
    .orderBy(asc(modelProviders.createdAt), asc(modelProviders.id))
    .prepare('owners_providers'),
);
const providerModelsOf = preparedPerDb((db) =>
  db
    .select()
    .from(providerModels)
    .where(
      inArray(
        providerModels.providerId,
        db
          .select({ id: modelProviders.id })
          .from(modelProviders)
          .where(eq(modelProviders.ownerId, sql.placeholder('ownerId'))),
      ),
    )
    .orderBy(asc(providerModels.modelType), asc(providerModels.name))
    .prepare('owners_provider_models'),
);

export async function listModelProviders({ db }: Pick<Ctx, 'db'>, ownerId: number) {
  const providers = await providersOf(db).execute({ ownerId });
  if (!providers.length) return [];
  const models = await providerModelsOf(db).execute({ ownerId });
  return providers.map((p) => serializeModelProvider(p, models));
}
