import type { TModelType } from '@cairn/contracts/applications';
import type { TProviderKind } from '@cairn/contracts/model-providers';
import type { Db } from '@cairn/db/client';
import { preparedPerDb } from '@cairn/db/prepared';
import { modelProviders, providerModels } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { ModelCtx } from '../lib/ctx.ts';
import { SecretBoxError } from '../lib/secret-box.ts';
import { ModelProviderError } from './provider-errors.ts';
import { keyContext } from './provider-secrets.ts';
import type { ProviderAddressPolicy } from './provider-url.ts';

export interface ProviderConnection {
  uuid: string;
  kind: TProviderKind;
  name: string;
  baseUrl: string;
  apiKey: string | undefined;
  /** Which addresses this server's providers may be reached at (decision 056). */
  addresses: ProviderAddressPolicy;
}

export interface LoadedProviderModel {
  provider: ProviderConnection;
  model: { id: number; uuid: string; name: string; modelType: TModelType; dimensions: number | null };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Opens the stored key of a provider row. */
export function connectionOf(ctx: ModelCtx, row: typeof modelProviders.$inferSelect): ProviderConnection {
  return {
    uuid: row.uuid,
    kind: row.kind,
    name: row.name,
    baseUrl: row.baseUrl,
    apiKey: row.keyCiphertext ? openKey(ctx, row) : undefined,
    addresses: ctx.config.providerAddresses,
  };
}

function openKey(ctx: ModelCtx, row: typeof modelProviders.$inferSelect): string {
  try {
    return ctx.secrets.open(row.keyCiphertext!, keyContext(row.uuid));
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    throw new ModelProviderError(
      'not_configured',
      `The API key of the model provider "${row.name}" cannot be decrypted (was SECRET_KEY changed?). Enter the key again in Settings → Models.`,
      undefined,
      { cause: error },
    );
  }
}

/** Every answer with a connected model reads its model: optionally only among an owner's. */
function modelLookup(db: Db, owned: boolean) {
  const conditions = [
    eq(providerModels.uuid, sql.placeholder('modelUuid')),
    eq(providerModels.modelType, sql.placeholder('modelType')),
  ];
  if (owned) conditions.push(eq(modelProviders.ownerId, sql.placeholder('ownerId')));
  return db
    .select({ model: providerModels, provider: modelProviders })
    .from(providerModels)
    .innerJoin(modelProviders, eq(providerModels.providerId, modelProviders.id))
    .where(and(...conditions));
}
const anyonesModel = preparedPerDb((db) => modelLookup(db, false).prepare('provider_model'));
const ownersModel = preparedPerDb((db) => modelLookup(db, true).prepare('owners_provider_model'));

/**
 * A provider model by uuid with its provider's connection (key decrypted), optionally scoped to
 * an owner. A missing model — deleted since it was chosen — is a clear `not_configured` error.
 */
export async function loadProviderModel(
  ctx: ModelCtx,
  modelUuid: string,
  modelType: TModelType,
  ownerId?: number,
): Promise<LoadedProviderModel> {
  const missing = () =>
    new ModelProviderError(
      'not_configured',
      `The ${modelType} model of this application no longer exists; choose another one on the application page.`,
    );
  if (!UUID.test(modelUuid)) throw missing();
  const [row] =
    ownerId === undefined
      ? await anyonesModel(ctx.database.db).execute({ modelUuid, modelType })
      : await ownersModel(ctx.database.db).execute({ modelUuid, modelType, ownerId });
  if (!row) throw missing();
  return {
    provider: connectionOf(ctx, row.provider),
    model: {
      id: row.model.id,
      uuid: row.model.uuid,
      name: row.model.name,
      modelType: row.model.modelType,
      dimensions: row.model.dimensions,
    },
  };
}
