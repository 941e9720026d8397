import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack refuses to replay older requests; so do we (Slack's "Verifying requests from Slack"). */
export const SLACK_MAX_AGE_SECONDS = 5 * 60;

/** `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}` keyed with the signing secret. */
export const slackSignature = (signingSecret: string, timestamp: string, body: string) =>
  `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;

export type SlackSignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks `X-Slack-Signature` over the raw body: the timestamp must be within five minutes of now
 * (either way), and the comparison takes the same time whatever the bytes.
 */
export function verifySlackSignature(
  signingSecret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): SlackSignatureCheck {
  const { timestamp, signature } = headers;
  if (!timestamp || !signature) return { ok: false, reason: 'The request is not signed.' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'The request timestamp is not valid.' };
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_MAX_AGE_SECONDS)
    return { ok: false, reason: 'The request is too old (or from the future).' };
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, rawBody), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  // Lengths differ only when the header is malformed; the length of ours is public anyway.
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'The request signature does not match.' };
  return { ok: true };
}
