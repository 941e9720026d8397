import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@cairn/contracts/webhooks';

/** `whsec_` + base64 of 32 random bytes, the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** What a webhook's secrets are sealed against (its uuid), so a sealed secret cannot move rows. */
export const secretContext = (webhookUuid: string) => `webhook:${webhookUuid}`;

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` per
 * secret, space-separated (the new secret first, then a rotated-out one still in its window). The
 * key is the base64-decoded part after `whsec_`. Signed by hand with node:crypto (five lines); the
 * tests verify with the `standardwebhooks` package, an implementation that is not ours.
 */
export function signatureHeader(msgId: string, timestamp: number, body: string, secrets: string[]): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
      const mac = createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64');
      return `v1,${mac}`;
    })
    .join(' ');
}
