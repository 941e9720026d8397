/**
 * Application API keys: `cairn_` + 32 base62 characters (190 random bits) + a 6-character base62
 * CRC32 of them, the way GitHub's tokens let secret scanners spot them and a typo be caught without
 * a lookup. Only a hash is stored; the key itself is shown once, when it is created.
 * No zod here: the keys page imports these in the browser.
 */
export const API_KEY_PREFIX = 'cairn_';
export const API_KEY_NAME_MAX = 100;
export const API_KEY_RPM_DEFAULT = 60;
export const API_KEY_RPM_MIN = 1;
export const API_KEY_RPM_MAX = 10_000;
/** An application has at most this many keys at once. */
export const API_KEYS_MAX = 50;
