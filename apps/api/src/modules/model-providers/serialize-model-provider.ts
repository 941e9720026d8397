import type { TModelProvider, TProviderModel } from '@cairn/contracts/model-providers';
import type { modelProviders, providerModels } from '@cairn/db/schema';

/** The public shape of a provider: never the key, only its last 4 characters. */
export function serializeModelProvider(
  provider: typeof modelProviders.$inferSelect,
  models: Array<typeof providerModels.$inferSelect>,
): TModelProvider {
  return {
    uuid: provider.uuid,
    kind: provider.kind,
    name: provider.name,
    base_url: provider.baseUrl,
    key_last4: provider.keyLast4,
    models: models.filter((m) => m.providerId === provider.id).map(serializeProviderModel),
    created_at: provider.createdAt.toISOString(),
    updated_at: provider.updatedAt.toISOString(),
  };
}

export function serializeProviderModel(model: typeof providerModels.$inferSelect): TProviderModel {
  return {
    uuid: model.uuid,
    name: model.name,
    model_type: model.modelType,
    input_price_per_million: model.inputPricePerMillion,
    output_price_per_million: model.outputPricePerMillion,
    created_at: model.createdAt.toISOString(),
  };
}
