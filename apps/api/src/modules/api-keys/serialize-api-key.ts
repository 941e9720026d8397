import type { TApiKey } from '@cairn/contracts/api-keys';
import type { apiKeys } from '@cairn/db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function serializeApiKey(row: ApiKeyRow): TApiKey {
  return {
    uuid: row.uuid,
    name: row.name,
    prefix: row.prefix,
    last_four: row.lastFour,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    requests_per_minute: row.requestsPerMinute,
  };
}
