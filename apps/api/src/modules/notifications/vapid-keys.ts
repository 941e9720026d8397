import { createECDH } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair, generated once into DATA_DIR (mode 0600) like the secret key: browsers bind
 * each subscription to the public key, so a new pair would silently orphan every subscription.
 * Several processes share it through a shared DATA_DIR.
 */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, 'vapid-keys.json');
  const read = () => JSON.parse(fs.readFileSync(file, 'utf8')) as VapidKeys;
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  // What web-push's generateVAPIDKeys makes: a P-256 pair, the public key uncompressed, base64url.
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const secret = ecdh.getPrivateKey();
  const keys: VapidKeys = {
    publicKey: ecdh.getPublicKey('base64url'),
    // 32 bytes: a key with leading zero bytes comes back shorter, which web-push refuses.
    privateKey: Buffer.concat([Buffer.alloc(32 - secret.length), secret]).toString('base64url'),
  };
  try {
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw error;
  }
}
