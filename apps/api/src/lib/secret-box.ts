import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts small secrets (provider API keys, webhook secrets, bot tokens) for storage: AES-256-GCM
 * under a key derived from SECRET_KEY with HKDF-SHA256. Sealed text is `v1.<iv>.<tag>.<ciphertext>` (base64url), so a later
 * scheme can be told apart. `context` is authenticated (GCM additional data): a value sealed for one
 * row cannot be moved to another and still open.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Seals and opens the secrets stored in the database, under `SECRET_KEY`. */
    secrets: SecretBox;
  }
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function deriveKey(secretKey: string, version = VERSION): Buffer {
  if (secretKey.length < 32) throw new SecretBoxError('SECRET_KEY must have at least 32 characters.');
  return Buffer.from(hkdfSync('sha256', secretKey, 'cairn-secret-box', `cairn/secret-box/${version}`, 32));
}

export function createSecretBox(secretKey: string): SecretBox {
  const key = deriveKey(secretKey);
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, tag, body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, body, ...rest] = sealed.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || body === undefined || rest.length) {
        throw new SecretBoxError('Unknown sealed secret format.');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        // Wrong SECRET_KEY, a tampered value or a value sealed for another row: all look the same.
        throw new SecretBoxError('The secret cannot be decrypted (was SECRET_KEY changed?).');
      }
    },
  };
}
