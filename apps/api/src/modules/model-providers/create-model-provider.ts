import { randomUUID } from 'node:crypto';
import type { TCreateModelProviderRequest } from '@cairn/contracts/model-providers';
import type { Database } from '@cairn/db/client';
import { modelProviders } from '@cairn/db/schema';
import { keyContext, secretBoxFor } from '../../models/provider-secrets.ts';
import { providerAddressPolicyFor } from '../../models/provider-url.ts';
import { assertKeyPresent, baseUrlFor, last4 } from './provider-input.ts';
import { serializeModelProvider } from './serialize-model-provider.ts';

export async function createModelProvider(
  database: Database,
  ownerId: number,
  input: TCreateModelProviderRequest,
) {
  const baseUrl = await baseUrlFor(input.kind, input.base_url, providerAddressPolicyFor(database));
  const key = input.api_key || undefined;
  assertKeyPresent(input.kind, key);
  // The uuid is made here because the sealed key is bound to it.
  const uuid = randomUUID();
  const [row] = await database.db
    .insert(modelProviders)
    .values({
      uuid,
      ownerId,
      kind: input.kind,
      name: input.name,
      baseUrl,
      keyCiphertext: key ? secretBoxFor(database).seal(key, keyContext(uuid)) : null,
      keyLast4: key ? last4(key) : null,
    })
    .returning();
  return serializeModelProvider(row!, []);
}
