import type { SecretBox } from '../../lib/secret-box.ts';

/**
 * Each secret is sealed for its row and its purpose: a bot token cannot be moved to another
 * integration, or swapped with the signing secret, and still open.
 */
type Purpose = 'bot_token' | 'signing_secret';
const context = (uuid: string, purpose: Purpose) => `integration:${uuid}:${purpose}`;

export const sealSecret = (box: SecretBox, uuid: string, purpose: Purpose, value: string) =>
  box.seal(value, context(uuid, purpose));
export const openSecret = (box: SecretBox, uuid: string, purpose: Purpose, sealed: string) =>
  box.open(sealed, context(uuid, purpose));
