import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-config-'));

describe('configuration', () => {
  it('starts with no environment at all', () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.role).toBe('all');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.maxUploadBytes).toBe(25 * 1024 * 1024);
    expect(config.sessionLifetime).toEqual({ idleMs: 30 * 86_400_000, maxMs: 365 * 86_400_000 });
  });

  it('reads session lifetimes in days, fractions too, and refuses a non-positive one', () => {
    const config = loadConfig({ DATA_DIR: tmp(), SESSION_IDLE_DAYS: '0.5', SESSION_MAX_DAYS: '90' });
    expect(config.sessionLifetime).toEqual({ idleMs: 43_200_000, maxMs: 90 * 86_400_000 });
    expect(() => loadConfig({ DATA_DIR: tmp(), SESSION_IDLE_DAYS: '0' })).toThrow(/SESSION_IDLE_DAYS/);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from an explicit one', () => {
    expect(loadConfig({ DATA_DIR: tmp(), PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ DATA_DIR: tmp(), PUBLIC_URL: 'https://cairn.example.com/' }).publicUrl).toBe(
      'https://cairn.example.com',
    );
  });

  it('generates SECRET_KEY once, keeps it with mode 0600, and reuses it', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir }).secretKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, 'secret-key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBe(first);
    expect(loadConfig({ DATA_DIR: dir, SECRET_KEY: 'k'.repeat(40) }).secretKey).toBe('k'.repeat(40));
  });

  it('trusts no proxy by default, or the listed addresses and CIDR blocks', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).trustProxy).toEqual([]);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'false' }).trustProxy).toEqual([]);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '10.0.0.0/8, fd00::/8,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '::1',
    ]);
    // `true` (any client could pick its own address) and anything that is no address are refused.
    for (const bad of ['true', '1', '10.0.0.0/33', 'proxy.internal', '10.0.0.1,', '::1/129']) {
      expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('fails listing every bad key at once', () => {
    const bad = {
      DATA_DIR: tmp(),
      PORT: 'eighty',
      ROLE: 'boss',
      DATABASE_URL: 'mysql://x',
      SECRET_KEY: 'short',
      LOG_LEVEL: 'loud',
    };
    let error: unknown;
    try {
      loadConfig(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const keys = (error as ConfigError).issues.map((i) => i.split(':')[0]);
    expect(keys.sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'ROLE', 'SECRET_KEY']);
    expect((error as Error).message).toContain('Invalid configuration');
  });
});
