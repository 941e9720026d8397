import { randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { API_KEY_PREFIX } from '@cairn/contracts/api-keys';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 base62 characters: 190 random bits. */
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, length: number): string {
  let out = '';
  for (let rest = value; out.length < length; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out;
  return out;
}

const checksum = (body: string) => base62(crc32(body), CHECKSUM_LENGTH);

/** A new key: prefix, random body, and the CRC32 of the body (see contracts/api-keys.ts). */
export function newApiKey(): string {
  let body = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) body += BASE62[randomInt(62)];
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** True when the text is shaped like a key and its checksum matches: a typo is caught before any lookup. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + RANDOM_LENGTH);
  return key.endsWith(checksum(body));
}

/** What the owner sees of a key: its first ten and last four characters. */
export const keyPrefix = (key: string) => key.slice(0, API_KEY_PREFIX.length + 4);
export const keyLastFour = (key: string) => key.slice(-4);
