import { MESSAGES } from '@cairn/contracts/accounts';
import { hash, verify } from '@node-rs/argon2';
import commonPasswords from 'fxa-common-password-list';
import { fieldError } from '../../lib/app-error.ts';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1), OWASP's recommended minimum.
export const hashPassword = (password: string) => hash(password);

/** A hash of a random password: verifying against it costs what a real check costs. */
const DUMMY_HASH = hash(crypto.randomUUID());

/** Verifies in constant-ish time whether or not the account exists. */
export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await DUMMY_HASH, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

export function assertPasswordNotCommon(password: string, field = 'password'): void {
  if (commonPasswords.test(password) || commonPasswords.test(password.toLowerCase())) {
    throw fieldError(field, MESSAGES.passwordCommon);
  }
}
