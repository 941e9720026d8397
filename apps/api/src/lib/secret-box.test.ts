import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretBoxError } from './secret-box.ts';

const secret = () => randomBytes(32).toString('base64url');

describe('secret box', () => {
  it('round-trips and never contains the plaintext', () => {
    const box = createSecretBox(secret());
    const key = 'sk-live-0123456789abcdefghijklmnop';
    const sealed = box.seal(key, 'provider:1');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain(key);
    expect(sealed).not.toContain(Buffer.from(key).toString('base64url'));
    expect(box.open(sealed, 'provider:1')).toBe(key);
  });

  it('uses a fresh IV each time', () => {
    const box = createSecretBox(secret());
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c'));
  });

  it('refuses another SECRET_KEY, another context, tampering and unknown versions', () => {
    const key = secret();
    const box = createSecretBox(key);
    const sealed = box.seal('sk-abc', 'provider:1');
    expect(() => createSecretBox(secret()).open(sealed, 'provider:1')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'provider:2')).toThrow(SecretBoxError);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => box.open(parts.join('.'), 'provider:1')).toThrow(SecretBoxError);
    expect(() => box.open(sealed.replace(/^v1/, 'v9'), 'provider:1')).toThrow(/format/);
    // The same SECRET_KEY in a new process opens it (the key is derived, not random).
    expect(createSecretBox(key).open(sealed, 'provider:1')).toBe('sk-abc');
  });

  it('rejects a short SECRET_KEY', () => {
    expect(() => createSecretBox('short')).toThrow(/32/);
  });
});
