import type { TAddProviderModelRequest, TUpdateProviderModelRequest } from '@cairn/contracts/model-providers';
import { providerModels } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { AppError, fieldError, notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { findModelProvider } from './find-model-provider.ts';
import { serializeProviderModel } from './serialize-model-provider.ts';

/** Adds a model (entered by hand or picked from "test connection") to the caller's provider. */
export async function addProviderModel(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  providerUuid: string,
  input: TAddProviderModelRequest,
) {
  const provider = await findModelProvider(db, ownerId, providerUuid);
  if (provider.kind === 'anthropic' && input.model_type === 'embedding') {
    throw fieldError('model_type', 'Anthropic offers no embedding models');
  }
  const [row] = await db
    .insert(providerModels)
    .values({ providerId: provider.id, name: input.name, modelType: input.model_type })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    throw new AppError(
      'conflict',
      `This provider already has the ${input.model_type} model "${input.name}".`,
      {
        name: ['Already added'],
      },
    );
  }
  return serializeProviderModel(row);
}

/** Sets or clears the prices per million tokens the analytics estimate a model's cost with. */
export async function updateProviderModel(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  ids: { providerId: string; modelId: string },
  input: TUpdateProviderModelRequest,
) {
  const provider = await findModelProvider(db, ownerId, ids.providerId);
  const [row] = await db
    .update(providerModels)
    .set({
      ...(input.input_price_per_million !== undefined && {
        inputPricePerMillion: input.input_price_per_million,
      }),
      ...(input.output_price_per_million !== undefined && {
        outputPricePerMillion: input.output_price_per_million,
      }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(providerModels.uuid, ids.modelId), eq(providerModels.providerId, provider.id)))
    .returning();
  if (!row) throw notFound('Model not found.');
  return serializeProviderModel(row);
}

export async function removeProviderModel(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  providerUuid: string,
  modelUuid: string,
) {
  const provider = await findModelProvider(db, ownerId, providerUuid);
  const [row] = await db
    .delete(providerModels)
    .where(and(eq(providerModels.uuid, modelUuid), eq(providerModels.providerId, provider.id)))
    .returning({ id: providerModels.id });
  if (!row) throw notFound('Model not found.');
}
