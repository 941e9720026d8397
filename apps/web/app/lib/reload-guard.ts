/**
 * Reload guard (specification §4, §9): a new build or a chunk-load failure reloads the page, at most
 * once per path within 10 seconds, so a broken deploy cannot loop the browser.
 */
export const RELOAD_WINDOW_MS = 10_000;
const KEY_PREFIX = 'cairn:reloaded:';

export interface GuardStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Records the reload and answers true when the path was not reloaded in the last 10 s. */
export function claimReload(storage: GuardStorage, path: string, now: number): boolean {
  const key = KEY_PREFIX + path;
  const last = Number(storage.getItem(key));
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_WINDOW_MS) return false;
  storage.setItem(key, String(now));
  return true;
}

/** Full page load of `href` (default: the current page) unless the guard refuses. */
export function guardedReload(href?: string): boolean {
  const target = new URL(href ?? window.location.href, window.location.href);
  let storage: GuardStorage;
  try {
    storage = window.sessionStorage;
  } catch {
    return false;
  }
  if (!claimReload(storage, target.pathname, Date.now())) return false;
  if (href) window.location.assign(target.href);
  else window.location.reload();
  return true;
}

/** Errors a browser raises when a lazily loaded chunk of an older build is gone. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Unable to preload CSS/i.test(
    message,
  );
}
