import { createHash, randomBytes } from 'node:crypto';

/** Session and API tokens: 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');
/**
 * E-mail link tokens: 128 random bits (22 characters), short enough that the whole link fits on
 * one 76-character line, so the plain-text part stays unencoded and the link readable.
 */
export const newLinkToken = () => randomBytes(16).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
