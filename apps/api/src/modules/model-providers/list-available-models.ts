import type { TAvailableModel } from '@cairn/contracts/model-providers';
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import { modelProviders, providerModels } from '@cairn/db/schema';
import { asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

/** Every model the caller may attach to an application: the built-ins, then their providers' models. */
export async function listAvailableModels(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
): Promise<TAvailableModel[]> {
  const rows = await db
    .select({ model: providerModels, provider: modelProviders })
    .from(providerModels)
    .innerJoin(modelProviders, eq(providerModels.providerId, modelProviders.id))
    .where(eq(modelProviders.ownerId, ownerId))
    .orderBy(asc(modelProviders.createdAt), asc(modelProviders.id), asc(providerModels.name));
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
