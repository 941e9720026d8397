import { useEffect, useState } from 'react';
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useFetchers,
  useMatches,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import { ErrorPage, RouteErrorPage } from './components/error-page';
import { webLoadContext } from './lib/load-context';
import { guardedReload, isChunkLoadError } from './lib/reload-guard';
import { isMode, isTheme, type ThemePrefs } from './lib/theme';
import { readTheme } from './lib/theme.server';
import { LazyToaster } from './lib/toast';
import { useBuildCheck } from './lib/use-build-check';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export function loader({ request, context }: Route.LoaderArgs) {
  const { nonce, buildId } = webLoadContext(context);
  return data({ theme: readTheme(request), nonce, buildId });
}

/** The theme to paint: an in-flight theme change wins over the cookie (optimistic UI). */
function useThemePrefs(): ThemePrefs {
  const root = useRouteLoaderData<typeof loader>('root');
  const prefs: ThemePrefs = root?.theme ?? { theme: 'gray', mode: 'system' };
  const pending = useFetchers().filter((f) => f.formAction === '/theme' && f.formData);
  const theme = pending.map((f) => f.formData?.get('theme')).find(isTheme);
  const mode = pending.map((f) => f.formData?.get('mode')).find(isMode);
  return { theme: theme ?? prefs.theme, mode: mode ?? prefs.mode };
}

/**
 * Keeps errors raised before hydration (when the app's own listeners are not there yet), so that
 * the app can still switch to the error page once it mounts.
 */
const EARLY_ERRORS_SCRIPT =
  'window.__cairnEarlyErrors=[];' +
  "['error','unhandledrejection'].forEach(function(t){addEventListener(t,function(e){" +
  'if(window.__cairnEarlyErrors)window.__cairnEarlyErrors.push(e)})})';

/**
 * False on pages that ship no JavaScript (a route's `handle: { hydrate: false }`, the public pages):
 * they are server-rendered HTML whose forms post to route actions (docs/decisions/050).
 */
function useHydrate(): boolean {
  return !useMatches().some((m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>('root');
  const hydrate = useHydrate();
  // Dev allows inline scripts (Vite); without a nonce there is no dev-only hydration warning about it
  // (browsers hide nonce attributes from the DOM).
  const nonce = import.meta.env.DEV ? undefined : root?.nonce;
  const { theme, mode } = useThemePrefs();
  return (
    <html lang="en" data-theme={theme} data-mode={mode} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Same-origin only: with the server's no-referrer, a plain form post (the public pages have
            no JavaScript) would carry `Origin: null`, which React Router refuses as cross-site. */}
        <meta name="referrer" content="same-origin" />
        {hydrate ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, no user input
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: EARLY_ERRORS_SCRIPT }} />
        ) : null}
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh bg-background font-sans text-foreground antialiased">
        {children}
        {/* The specification's toast numbers (they are also sonner's defaults). Loaded with the first toast. */}
        <LazyToaster
          theme={mode}
          duration={4000}
          visibleToasts={3}
          gap={14}
          position="bottom-right"
          closeButton
          richColors
        />
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export const meta: Route.MetaFunction = () => [{ title: 'Cairn' }];

export default function App({ loaderData }: Route.ComponentProps) {
  useBuildCheck(loaderData.buildId);
  const [fatal, setFatal] = useState(false);

  // A fatal or unhandled error at mount or later switches to the error page (specification §4).
  useEffect(() => {
    const onError = (event: ErrorEvent) => {
      if (isChunkLoadError(event.error ?? event.message)) {
        guardedReload();
        return;
      }
      // Benign browser noise, not an application failure.
      if (/ResizeObserver loop/.test(event.message)) return;
      setFatal(true);
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      if (isChunkLoadError(event.reason)) {
        guardedReload();
        return;
      }
      setFatal(true);
    };
    // Vite reports a failed preload of an older build's chunk here.
    const onPreloadError = (event: Event) => {
      event.preventDefault();
      guardedReload();
    };
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    window.addEventListener('vite:preloadError', onPreloadError);
    const early = window as { __cairnEarlyErrors?: Event[] };
    const missed = early.__cairnEarlyErrors ?? [];
    early.__cairnEarlyErrors = undefined;
    for (const event of missed) {
      if (event instanceof ErrorEvent) onError(event);
      else onRejection(event as PromiseRejectionEvent);
    }
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
      window.removeEventListener('vite:preloadError', onPreloadError);
    };
  }, []);

  if (fatal) return <ErrorPage status={500} />;
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorPage error={error} />;
}
