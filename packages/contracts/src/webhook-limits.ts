/** A user has at most this many webhooks. No zod here: the integrations page imports it in the browser. */
export const WEBHOOKS_MAX = 20;
