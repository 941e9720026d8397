import { API_KEYS_MAX, type TCreatedApiKey, type ZCreateApiKeyRequest } from '@cairn/contracts/api-keys';
import { apiKeys } from '@cairn/db/schema';
import { count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { findApplication } from '../../lib/find-application.ts';
import { hashToken } from '../../lib/tokens.ts';
import { keyLastFour, keyPrefix, newApiKey } from './key-format.ts';
import { serializeApiKey } from './serialize-api-key.ts';

/** Creates a key for the owner's application; the answer is the only place the key itself appears. */
export async function createApiKey(
  { db }: Pick<Ctx, 'db'>,
  ownerId: number,
  appUuid: string,
  input: z.output<typeof ZCreateApiKeyRequest>,
): Promise<TCreatedApiKey> {
  const application = await findApplication(db, ownerId, appUuid);
  const [existing] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(eq(apiKeys.applicationId, application.id));
  if ((existing?.n ?? 0) >= API_KEYS_MAX) {
    throw new AppError(
      'conflict',
      `An application can have at most ${API_KEYS_MAX} API keys. Delete one first.`,
    );
  }
  const key = newApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      applicationId: application.id,
      name: input.name,
      keyHash: hashToken(key),
      prefix: keyPrefix(key),
      lastFour: keyLastFour(key),
      requestsPerMinute: input.requests_per_minute,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
    })
    .returning();
  return { ...serializeApiKey(row!), key };
}
