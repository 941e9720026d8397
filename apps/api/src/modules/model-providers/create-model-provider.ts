import { randomUUID } from 'node:crypto';
import type { TCreateModelProviderRequest } from '@cairn/contracts/model-providers';
import { modelProviders } from '@cairn/db/schema';
import type { Ctx } from '../../lib/ctx.ts';
import { keyContext } from '../../models/provider-secrets.ts';
import { assertKeyPresent, baseUrlFor, last4 } from './provider-input.ts';
import { serializeModelProvider } from './serialize-model-provider.ts';

export async function createModelProvider(ctx: Ctx, ownerId: number, input: TCreateModelProviderRequest) {
  const baseUrl = await baseUrlFor(input.kind, input.base_url, ctx.config.providerAddresses);
  const key = input.api_key || undefined;
  assertKeyPresent(input.kind, key);
  // The uuid is made here because the sealed key is bound to it.
  const uuid = randomUUID();
  const [row] = await ctx.db
    .insert(modelProviders)
    .values({
      uuid,
      ownerId,
      kind: input.kind,
      name: input.name,
      baseUrl,
      keyCiphertext: key ? ctx.secrets.seal(key, keyContext(uuid)) : null,
      keyLast4: key ? last4(key) : null,
    })
    .returning();
  return serializeModelProvider(row!, []);
}
