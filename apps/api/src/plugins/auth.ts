import { API_KEY_PREFIX } from '@cairn/contracts/api-keys';
import { authTokens, users } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import { oncePerPage } from '../lib/page-memo.ts';
import { sessionEnded } from '../lib/session-ended.ts';
import { hashToken } from '../lib/tokens.ts';

export const AUTH_COOKIE = 'auth_token';
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type AuthUser = typeof users.$inferSelect;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; routes behind it can rely on it. */
    user: AuthUser;
    authTokenHash: string;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** Resolves the caller without failing; used by the WebSocket upgrade. */
    resolveUser: (request: FastifyRequest) => Promise<{ user: AuthUser; tokenHash: string } | null>;
  }
}

type Resolved = { user: AuthUser; tokenHash: string };

const unauthorized = (detail: string) =>
  new AppError('unauthorized', detail, undefined, { 'www-authenticate': 'Token' });

function tokenFrom(request: FastifyRequest): { token: string; viaCookie: boolean } | null {
  const header = request.headers.authorization;
  // An application key is a principal of /api/v1 only (DESIGN §8): say so rather than "invalid".
  if (header && /^\S+\s+(\S+)$/.exec(header.trim())?.[1]?.startsWith(API_KEY_PREFIX)) {
    throw unauthorized(
      'Application API keys work only on the OpenAI-compatible API under /api/v1; sign in for this endpoint.',
    );
  }
  if (header) {
    const match = /^Token\s+(\S+)$/i.exec(header.trim());
    if (!match?.[1]) throw unauthorized('Invalid Authorization header; expected "Token <key>".');
    return { token: match[1], viaCookie: false };
  }
  const cookie = request.cookies[AUTH_COOKIE];
  return cookie ? { token: cookie, viaCookie: true } : null;
}

/**
 * Cookie-authenticated unsafe requests, and every form post to a page, must come from our own origin
 * (CSRF). The host compared is the request's own, or a trusted proxy's X-Forwarded-Host (TRUST_PROXY).
 */
export function isCrossSite(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (origin) {
    const own = new Set([new URL(publicUrl).origin, `${request.protocol}://${request.host}`]);
    return !own.has(origin);
  }
  return request.headers['sec-fetch-site'] === 'cross-site';
}

export default fp(async function authPlugin(app: FastifyInstance, opts: { publicUrl: string }) {
  app.decorateRequest('user', null as unknown as AuthUser);
  app.decorateRequest('authTokenHash', '');

  // A page's calls share one lookup of their token (lib/page-memo.ts).
  const lookup = (token: string, request: FastifyRequest): Promise<Resolved | null> =>
    oncePerPage(`token:${token}`, () => lookupNow(token, request.ip));

  // Every authenticated request runs it: built once (drizzle's query building costs about as much as
  // PGlite running it).
  const tokenLookup = app.db
    .select({
      user: users,
      tokenId: authTokens.id,
      createdAt: authTokens.createdAt,
      lastUsedAt: authTokens.lastUsedAt,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(eq(authTokens.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('auth_token_lookup');

  async function lookupNow(token: string, ip: string): Promise<Resolved | null> {
    const tokenHash = hashToken(token);
    const [row] = await tokenLookup.execute({ tokenHash });
    if (!row) return null;
    const now = Date.now();
    if (sessionEnded(row, app.config.sessionLifetime, now)) {
      await app.db.delete(authTokens).where(eq(authTokens.id, row.tokenId));
      return null;
    }
    // Coarse last-use bookkeeping, at most one write per token a minute, off the request's path.
    if (now - row.lastUsedAt.getTime() > 60_000) {
      app.db
        .update(authTokens)
        .set({ lastUsedAt: sql`now()`, ipAddress: ip })
        .where(eq(authTokens.id, row.tokenId))
        .catch((err: unknown) => app.log.warn({ err }, 'could not record token use'));
    }
    return { user: row.user, tokenHash };
  }

  app.decorate('resolveUser', async (request: FastifyRequest) => {
    const found = tokenFrom(request);
    if (!found) return null;
    if (found.viaCookie && isCrossSite(request, opts.publicUrl)) return null;
    return lookup(found.token, request);
  });

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const found = tokenFrom(request);
    if (!found) throw unauthorized('Authentication credentials were not provided.');
    if (found.viaCookie && !SAFE_METHODS.has(request.method) && isCrossSite(request, opts.publicUrl)) {
      throw new AppError('forbidden', 'Cross-site request refused.');
    }
    const resolved = await lookup(found.token, request);
    if (!resolved) throw unauthorized('Invalid or expired token.');
    request.user = resolved.user;
    request.authTokenHash = resolved.tokenHash;
  });
});
