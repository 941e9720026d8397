import { describe, expect, it } from 'vitest';
import { claimReload, isChunkLoadError, RELOAD_WINDOW_MS } from './reload-guard';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe('reload guard', () => {
  it('allows one reload per path within 10 s', () => {
    const storage = memoryStorage();
    expect(RELOAD_WINDOW_MS).toBe(10_000);
    expect(claimReload(storage, '/a', 1_000)).toBe(true);
    expect(claimReload(storage, '/a', 5_000)).toBe(false);
    expect(claimReload(storage, '/a', 10_999)).toBe(false);
    expect(claimReload(storage, '/b', 5_000)).toBe(true);
    expect(claimReload(storage, '/a', 11_000)).toBe(true);
  });

  it('recognises chunk-load failures', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new Error('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });
});
