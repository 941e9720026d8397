import { data, Outlet, type ShouldRevalidateFunctionArgs, useRouteLoaderData } from 'react-router';
import { AppShell } from '../components/app-shell';
import { ErrorPage, RouteErrorPage } from '../components/error-page';
import { apiFor } from '../lib/api.server';
import { ApiError } from '../lib/api-error';
import { webLoadContext } from '../lib/load-context';
import { assertParams, loadNavigation } from '../lib/navigation.server';
import { clearAuthCookie, loginRedirect, readAuthToken } from '../lib/session.server';
import type { Route } from './+types/default-layout';

/**
 * Default (signed-in) layout. Auth gate (specification §4): without the auth_token cookie the visitor
 * goes to /login?redirectTo=<path>; a token the API no longer accepts is cleared the same way.
 */
export async function loader(args: Route.LoaderArgs) {
  const { request, params, context } = args;
  // A malformed id is not found, signed in or not.
  if (!readAuthToken(request)) {
    assertParams(params);
    throw loginRedirect(request);
  }
  try {
    const navigation = await loadNavigation(apiFor(args), params);
    // A deleted (or mistyped) application is a 404 inside the shell: the sidebar stays.
    return navigation.notFound ? data(navigation, { status: 404 }) : navigation;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw loginRedirect(request, { 'Set-Cookie': clearAuthCookie(webLoadContext(context).secureCookies) });
    }
    throw error;
  }
}

/** A theme change does not touch the navigation data; everything else revalidates as usual. */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction === '/theme') return false;
  return defaultShouldRevalidate;
}

/** The signed-in user, applications, selected application and its chatrooms, for any page below. */
export function useNavigationData() {
  const data = useRouteLoaderData<typeof loader>('routes/default-layout');
  if (!data) throw new Error('useNavigationData must be used below the default layout');
  return data;
}

export default function DefaultLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell {...loaderData}>
      {loaderData.notFound ? <ErrorPage status={404} inShell /> : <Outlet />}
    </AppShell>
  );
}

/** A page below that failed keeps the sidebar when the navigation loaded; else the full error page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const navigation = useRouteLoaderData<typeof loader>('routes/default-layout');
  if (!navigation) return <RouteErrorPage error={error} />;
  return (
    <AppShell {...navigation}>
      <RouteErrorPage error={error} inShell />
    </AppShell>
  );
}
