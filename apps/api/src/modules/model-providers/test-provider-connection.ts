import type { TTestConnectionResponse } from '@cairn/contracts/model-providers';
import type { Ctx } from '../../lib/ctx.ts';
import { listRemoteModels } from '../../models/list-remote-models.ts';
import { connectionOf } from '../../models/load-provider-model.ts';
import { ModelProviderError } from '../../models/provider-errors.ts';
import { findModelProvider } from './find-model-provider.ts';

/** Calls the provider's model list: success proves URL and key; the list feeds the model picker. */
export async function testProviderConnection(
  ctx: Ctx,
  ownerId: number,
  uuid: string,
): Promise<TTestConnectionResponse> {
  const provider = await findModelProvider(ctx.db, ownerId, uuid);
  try {
    const models = await listRemoteModels(connectionOf(ctx, provider));
    return { ok: true, models };
  } catch (error) {
    if (error instanceof ModelProviderError) return { ok: false, detail: error.message, models: [] };
    throw error;
  }
}
