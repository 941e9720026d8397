import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import {
  VISITOR_TOKEN_PREFIX,
  VISITOR_TOKEN_RENEW_WINDOW_SECONDS,
  VISITOR_TOKEN_TTL_SECONDS,
} from '@cairn/contracts/widget';

/** What a visitor token says: this visitor may chat with this application from this host origin. */
export interface VisitorClaims {
  /** Application uuid. */
  a: string;
  /** Visitor uuid. */
  v: string;
  /** Host page origin. */
  o: string;
  /** Expiry, unix seconds. */
  exp: number;
}

export interface VisitorTokens {
  mint(claims: Omit<VisitorClaims, 'exp'>, now?: number): { token: string; expiresAt: Date };
  /**
   * The claims of a genuine token, or null (malformed, forged, expired). `renewal` accepts a token
   * that expired less than the renew window ago.
   */
  verify(token: string, options?: { renewal?: boolean; now?: number }): VisitorClaims | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Signed, stateless visitor tokens (decision 045): `cwv1.<base64url JSON claims>.<base64url HMAC>`,
 * under a key derived from SECRET_KEY for this purpose only. Stateless on purpose: 200 visitors
 * chatting cost no lookups, and every call still re-reads the widget (enabled, origins).
 */
export function createVisitorTokens(secretKey: string): VisitorTokens {
  const key = Buffer.from(
    hkdfSync('sha256', secretKey, 'cairn-visitor-token', 'cairn/widget/visitor/v1', 32),
  );
  const sign = (body: string) => createHmac('sha256', key).update(body).digest();

  return {
    mint(claims, now = Date.now()) {
      const exp = Math.floor(now / 1000) + VISITOR_TOKEN_TTL_SECONDS;
      const body = Buffer.from(JSON.stringify({ ...claims, exp })).toString('base64url');
      return {
        token: `${VISITOR_TOKEN_PREFIX}${body}.${sign(body).toString('base64url')}`,
        expiresAt: new Date(exp * 1000),
      };
    },
    verify(token, options = {}) {
      if (!token.startsWith(VISITOR_TOKEN_PREFIX) || token.length > 1000) return null;
      const [body, signature, ...rest] = token.slice(VISITOR_TOKEN_PREFIX.length).split('.');
      if (!body || !signature || rest.length) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let claims: VisitorClaims;
      try {
        claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (
        typeof claims !== 'object' ||
        !claims ||
        typeof claims.a !== 'string' ||
        typeof claims.v !== 'string' ||
        !UUID.test(claims.v) ||
        typeof claims.o !== 'string' ||
        typeof claims.exp !== 'number'
      ) {
        return null;
      }
      const now = Math.floor((options.now ?? Date.now()) / 1000);
      const grace = options.renewal ? VISITOR_TOKEN_RENEW_WINDOW_SECONDS : 0;
      return claims.exp + grace > now ? claims : null;
    },
  };
}
