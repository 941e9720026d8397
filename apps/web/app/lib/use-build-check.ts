import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { guardedReload } from './reload-guard';

/** How often the client asks the server for its build id (the specification leaves it open). */
export const BUILD_CHECK_INTERVAL_MS = 60_000;
export const BUILD_ID_PATH = '/version.json';

/**
 * Notices a new deploy: checks the server's build id periodically and when the window regains focus;
 * once it changed, the next navigation becomes a full page load (guarded: once per path per 10 s).
 */
export function useBuildCheck(buildId: string) {
  const stale = useRef(false);
  const location = useLocation();
  const firstRender = useRef(true);

  useEffect(() => {
    let cancelled = false;
    const check = async () => {
      try {
        const res = await fetch(BUILD_ID_PATH, {
          cache: 'no-store',
          headers: { accept: 'application/json' },
        });
        if (!res.ok) return;
        const body = (await res.json()) as { buildId?: unknown };
        if (!cancelled && typeof body.buildId === 'string' && body.buildId !== buildId) stale.current = true;
      } catch {
        // Offline or restarting: try again at the next tick or focus.
      }
    };
    const onFocus = () => void check();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    const timer = window.setInterval(check, BUILD_CHECK_INTERVAL_MS);
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [buildId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per client-side navigation
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (stale.current) guardedReload(window.location.href);
  }, [location.key]);
}
