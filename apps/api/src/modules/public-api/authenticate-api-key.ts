import { timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '@cairn/contracts/api-keys';
import { apiKeys, applications } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../../lib/ctx.ts';
import { countHit, countHitsSql, fixedWindow, pruneHitsSometimes } from '../../lib/rate-limit.ts';
import { hashToken } from '../../lib/tokens.ts';
import { isWellFormedApiKey } from '../api-keys/key-format.ts';
import type { ApiKeyRow } from '../api-keys/serialize-api-key.ts';
import type { ApplicationRow } from '../applications/serialize-application.ts';
import { invalidApiKey, OpenAIError } from './openai-error.ts';

export interface KeyPrincipal {
  key: ApiKeyRow;
  application: ApplicationRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on `/api/v1` routes: the API key and the one application it reaches. */
    apiKey: KeyPrincipal;
  }
}

/** Unexpired (the database's clock decides, for the count and the refusal alike). */
const usable = sql<boolean>`(${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > now())`;

/** Failed key checks one address may make a minute before it is refused outright until the minute ends. */
export const BAD_KEYS_PER_MINUTE = 20;

const rateLimited = (message: string, retryAfter: number, code: string) =>
  new OpenAIError(429, message, 'requests', code, null, true, { 'retry-after': String(retryAfter) });

const rateLimitHeaders = (limit: number, remaining: number, resetSeconds: number) => ({
  'x-ratelimit-limit-requests': String(limit),
  'x-ratelimit-remaining-requests': String(Math.max(0, remaining)),
  'x-ratelimit-reset-requests': `${resetSeconds}s`,
});

/**
 * The `/api/v1` principal (DESIGN §8): `Authorization: Bearer cairn_…` only. The checksum catches a
 * mistyped key before any lookup; the key is found by its hash and compared in constant time; it is
 * looked up on every request, so a deleted key stops at once in every process. Each key has its own
 * requests-per-minute limit, counted in the database, reported in `x-ratelimit-*`. Every answer
 * carries those headers: before a key is accepted they are the address's budget of failed checks,
 * the only limit that applies then.
 */
export function apiKeyAuthenticator(app: Ctx) {
  // The key's lookup counts its hit too, in one statement (a CTE): a valid, unexpired key's
  // requests are counted as before, without a round trip of their own. Built once: drizzle's
  // building of it cost about as much CPU as PGlite's running it, on every request (decision 074).
  const hit = app.db
    .$with('hit', { count: sql<number>`count` })
    .as(
      countHitsSql(
        sql`SELECT 'v1-key:' || ${apiKeys.id} FROM ${apiKeys} WHERE ${apiKeys.keyHash} = ${sql.placeholder('keyHash')} AND ${usable}`,
        sql.placeholder('windowStart'),
      ),
    );
  const keyLookup = app.db
    .with(hit)
    .select({
      key: apiKeys,
      application: applications,
      usable,
      hits: sql<number | null>`(SELECT count FROM ${hit})`,
    })
    .from(apiKeys)
    .innerJoin(applications, eq(applications.id, apiKeys.applicationId))
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .limit(1)
    .prepare('api_key_lookup');

  /** Addresses that failed too often, refused without a lookup until the window ends (this process). */
  const blocked = new Map<string, number>();

  async function refuse(request: FastifyRequest, reply: FastifyReply, message: string): Promise<never> {
    const hit = await countHit(app.database, `v1-bad-key:ip:${request.ip}`, 60);
    reply.headers(rateLimitHeaders(BAD_KEYS_PER_MINUTE, BAD_KEYS_PER_MINUTE - hit.count, hit.resetSeconds));
    if (hit.count > BAD_KEYS_PER_MINUTE) {
      blocked.set(request.ip, Date.now() + hit.resetSeconds * 1000);
      throw rateLimited(
        `Too many requests with invalid API keys from your address. Try again in ${hit.resetSeconds} seconds.`,
        hit.resetSeconds,
        'too_many_invalid_keys',
      );
    }
    throw invalidApiKey(message);
  }

  return async function authenticateApiKey(request: FastifyRequest, reply: FastifyReply) {
    const until = blocked.get(request.ip);
    if (until !== undefined) {
      const wait = Math.ceil((until - Date.now()) / 1000);
      if (wait > 0) {
        reply.headers(rateLimitHeaders(BAD_KEYS_PER_MINUTE, 0, wait));
        throw rateLimited(
          `Too many requests with invalid API keys from your address. Try again in ${wait} seconds.`,
          wait,
          'too_many_invalid_keys',
        );
      }
      blocked.delete(request.ip);
    }
    const header = request.headers.authorization?.trim();
    if (!header) {
      return refuse(
        request,
        reply,
        "You didn't provide an API key. Send it as `Authorization: Bearer <key>`; create keys on the application's API keys page.",
      );
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const token = match?.[1];
    if (!token?.startsWith(API_KEY_PREFIX)) {
      return refuse(
        request,
        reply,
        `Only application API keys (${API_KEY_PREFIX}…) are accepted here, as \`Authorization: Bearer <key>\`; session tokens are not.`,
      );
    }
    if (!isWellFormedApiKey(token)) {
      return refuse(
        request,
        reply,
        'Incorrect API key provided: it is not a complete Cairn key (its checksum does not match).',
      );
    }
    const keyHash = hashToken(token);
    const window = fixedWindow(60);
    const [row] = await keyLookup.execute({ keyHash, windowStart: window.start });
    if (!row || !timingSafeEqual(Buffer.from(row.key.keyHash), Buffer.from(keyHash))) {
      return refuse(request, reply, 'Incorrect API key provided. It may have been deleted.');
    }
    if (!row.usable) {
      return refuse(request, reply, `This API key expired at ${row.key.expiresAt!.toISOString()}.`);
    }
    // Off the request's path, like the last-use bookkeeping below: the 1% of requests that prune
    // waited for a DELETE otherwise (the key check's p99).
    pruneHitsSometimes(app.database).catch((err: unknown) =>
      request.log.warn({ err }, 'could not prune rate-limit counters'),
    );

    const limit = row.key.requestsPerMinute;
    const count = Number(row.hits);
    reply.headers(rateLimitHeaders(limit, limit - count, window.resetSeconds));
    if (count > limit) {
      throw rateLimited(
        `Rate limit reached for this API key: ${limit} requests per minute. Try again in ${window.resetSeconds} seconds.`,
        window.resetSeconds,
        'rate_limit_exceeded',
      );
    }
    // Coarse last-use bookkeeping, at most one write per key a minute, off the request's path.
    if (!row.key.lastUsedAt || Date.now() - row.key.lastUsedAt.getTime() > 60_000) {
      app.db
        .update(apiKeys)
        .set({ lastUsedAt: sql`now()` })
        .where(eq(apiKeys.id, row.key.id))
        .catch((err: unknown) => request.log.warn({ err }, 'could not record API key use'));
    }
    request.apiKey = { key: row.key, application: row.application };
  };
}
