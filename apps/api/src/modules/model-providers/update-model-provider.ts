import type { TUpdateModelProviderRequest } from '@cairn/contracts/model-providers';
import { modelProviders } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { keyContext } from '../../models/provider-secrets.ts';
import { findModelProvider, modelsOf } from './find-model-provider.ts';
import { assertKeyPresent, baseUrlFor, last4 } from './provider-input.ts';
import { serializeModelProvider } from './serialize-model-provider.ts';

export async function updateModelProvider(
  ctx: Ctx,
  ownerId: number,
  uuid: string,
  input: TUpdateModelProviderRequest,
) {
  const provider = await findModelProvider(ctx.db, ownerId, uuid);
  const changes: Partial<typeof modelProviders.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.base_url !== undefined) {
    changes.baseUrl = await baseUrlFor(provider.kind, input.base_url, ctx.config.providerAddresses);
  }
  if (input.api_key !== undefined) {
    const key = input.api_key || null;
    assertKeyPresent(provider.kind, key);
    changes.keyCiphertext = key ? ctx.secrets.seal(key, keyContext(provider.uuid)) : null;
    changes.keyLast4 = key ? last4(key) : null;
  }
  const [row] = await ctx.db
    .update(modelProviders)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(modelProviders.id, provider.id))
    .returning();
  return serializeModelProvider(row!, await modelsOf(ctx, provider.id));
}

/** Deletes a provider and its models; applications that chose one of them fail with a clear error. */
export async function deleteModelProvider(ctx: Ctx, ownerId: number, uuid: string) {
  const provider = await findModelProvider(ctx.db, ownerId, uuid);
  await ctx.db.delete(modelProviders).where(eq(modelProviders.id, provider.id));
}
