import { Outlet, redirect } from 'react-router';
import { Brand } from '../components/brand';
import { PublicThemeMenu } from '../components/public-theme-menu';
import { readAuthToken } from '../lib/session.server';
import type { Route } from './+types/public-layout';

/** Pages a signed-in user has no business on (specification §4); they go to `/`. */
const SIGNED_OUT_ONLY = new Set(['/login', '/register']);

/**
 * These pages ship no JavaScript (issue 13, docs/decisions/050): their forms post to the routes'
 * actions, which answer with the page again or a redirect. The root layout reads this.
 */
export const handle = { hydrate: false };

export function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  if (SIGNED_OUT_ONLY.has(pathname) && readAuthToken(request)) throw redirect('/');
  return null;
}

/** Public layout: sign in, register, forgot/reset password, verify e-mail. */
export default function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-16 items-center justify-between px-4 sm:px-6">
        <Brand />
        <PublicThemeMenu />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-4 pb-16 sm:items-center sm:pt-0">
        <div className="w-full max-w-sm">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
