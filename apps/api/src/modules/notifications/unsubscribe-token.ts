import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { type TUnsubscribeTopic, UNSUBSCRIBE_TOPICS } from '@cairn/contracts/notifications';

const PREFIX = 'cnu1.';
const PURPOSE = 'unsubscribe-email';

export interface UnsubscribeTokens {
  mint(userId: number, event: TUnsubscribeTopic): string;
  /** The user and event of a genuine token, or null (malformed, forged, another purpose). */
  verify(token: string): { userId: number; event: TUnsubscribeTopic } | null;
}

/**
 * One-click unsubscribe links (RFC 8058): `cnu1.<base64url JSON {u, e, p}>.<base64url HMAC>` under a
 * key derived from SECRET_KEY for this purpose only, as visitor tokens are. Stateless and without
 * expiry on purpose: an unsubscribe link in an old e-mail must still work, and all it can do is turn
 * one event's e-mail off for one user.
 */
export function createUnsubscribeTokens(secretKey: string): UnsubscribeTokens {
  const key = Buffer.from(
    hkdfSync('sha256', secretKey, 'cairn-unsubscribe', 'cairn/notifications/unsubscribe/v1', 32),
  );
  const sign = (body: string) => createHmac('sha256', key).update(body).digest();
  return {
    mint(userId, event) {
      const body = Buffer.from(JSON.stringify({ u: userId, e: event, p: PURPOSE })).toString('base64url');
      return `${PREFIX}${body}.${sign(body).toString('base64url')}`;
    },
    verify(token) {
      if (!token.startsWith(PREFIX) || token.length > 500) return null;
      const [body, signature, ...rest] = token.slice(PREFIX.length).split('.');
      if (!body || !signature || rest.length) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let claims: { u?: unknown; e?: unknown; p?: unknown };
      try {
        claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (
        typeof claims !== 'object' ||
        claims === null ||
        claims.p !== PURPOSE ||
        typeof claims.u !== 'number' ||
        !Number.isSafeInteger(claims.u) ||
        !UNSUBSCRIBE_TOPICS.includes(claims.e as TUnsubscribeTopic)
      )
        return null;
      return { userId: claims.u, event: claims.e as TUnsubscribeTopic };
    },
  };
}
