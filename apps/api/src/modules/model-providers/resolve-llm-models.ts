import type { TLlmModel } from '@cairn/contracts/applications';
import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import type { Db } from '@cairn/db/client';
import { modelProviders, providerModels } from '@cairn/db/schema';
import { and, eq, inArray } from 'drizzle-orm';
import { fieldError } from '../../lib/app-error.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Turns an ordered list of model uuids into the application's `llm_models`, keeping the order.
 * Every id must be a built-in or one of the caller's provider models (another user's model is
 * reported exactly like an unknown one), without repeats, and there must be a text and an
 * embedding model among them.
 */
export async function resolveLlmModels(db: Db, ownerId: number, uuids: string[]): Promise<TLlmModel[]> {
  if (new Set(uuids).size !== uuids.length) throw fieldError('llm_models', 'A model is listed twice');
  const providerIds = uuids.filter((id) => UUID.test(id));
  const rows = providerIds.length
    ? await db
        .select({ model: providerModels, provider: modelProviders })
        .from(providerModels)
        .innerJoin(modelProviders, eq(providerModels.providerId, modelProviders.id))
        .where(and(inArray(providerModels.uuid, providerIds), eq(modelProviders.ownerId, ownerId)))
    : [];
  const models = uuids.map((id): TLlmModel => {
    const builtin = DEFAULT_LLM_MODELS.find((m) => m.uuid === id);
    if (builtin) return builtin;
    const row = rows.find((r) => r.model.uuid === id);
    if (!row) throw fieldError('llm_models', `Unknown model: ${id}`);
    return {
      uuid: row.model.uuid,
      name: row.model.name,
      provider: row.provider.kind,
      model_type: row.model.modelType,
    };
  });
  for (const type of ['text', 'embedding'] as const) {
    if (!models.some((m) => m.model_type === type)) {
      throw fieldError('llm_models', `Choose ${type === 'text' ? 'a text' : 'an embedding'} model`);
    }
  }
  return models;
}

/** The selected model of a kind: the first of that `model_type` in the list (spec §3). */
export const selectedModel = (models: TLlmModel[], type: TLlmModel['model_type']) =>
  models.find((m) => m.model_type === type);
