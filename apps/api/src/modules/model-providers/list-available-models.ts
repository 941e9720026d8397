import type { TAvailableModel } from '@cairn/contracts/model-providers';
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import { preparedPerDb } from '@cairn/db/prepared';
import { modelProviders, providerModels } from '@cairn/db/schema';
import { asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

// The overview and the model settings pages ask for them.
const ownersModels = preparedPerDb((db) =>
  db
    .select({ model: providerModels, provider: modelProviders })
    .from(providerModels)
    .innerJoin(modelProviders, eq(providerModels.providerId, modelProviders.id))
    .where(eq(modelProviders.ownerId, sql.placeholder('ownerId')))
    .orderBy(asc(modelProviders.createdAt), asc(modelProviders.id), asc(providerModels.name))
    .prepare('owners_models'),
);

/** Every model the caller may attach to an application: the built-ins, then their providers' models. */
export async function listAvailableModels(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
): Promise<TAvailableModel[]> {
  const rows = await ownersModels(db).execute({ ownerId });
  return [
    ...DEFAULT_LLM_MODELS.map((m) => ({ ...m, provider_name: 'Built-in', provider_uuid: null })),
    ...rows.map(({ model, provider }) => ({
      uuid: model.uuid,
      name: model.name,
      provider: provider.kind,
      model_type: model.modelType,
      provider_name: provider.name,
      provider_uuid: provider.uuid,
    })),
  ];
}
