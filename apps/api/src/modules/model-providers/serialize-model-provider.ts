import type { TModelProvider } from '@cairn/contracts/model-providers';
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
    models: models
      .filter((m) => m.providerId === provider.id)
      .map((m) => ({
        uuid: m.uuid,
        name: m.name,
        model_type: m.modelType,
        created_at: m.createdAt.toISOString(),
      })),
    created_at: provider.createdAt.toISOString(),
    updated_at: provider.updatedAt.toISOString(),
  };
}
