import { data, redirect } from 'react-router';
import { apiFor } from '../lib/api.server';
import { webLoadContext } from '../lib/load-context';
import { clearAuthCookie, readAuthToken } from '../lib/session.server';
import type { Route } from './+types/logout';

/** Sign-out: revoke the token on the server, clear the cookie, go to the sign-in page. */
export async function action(args: Route.ActionArgs) {
  if (readAuthToken(args.request)) {
    try {
      await apiFor(args).post('/api/logout/');
    } catch {
      // An already revoked or unknown token: the cookie goes anyway.
    }
  }
  return redirect('/login', {
    headers: { 'Set-Cookie': clearAuthCookie(webLoadContext(args.context).secureCookies) },
  });
}

export function loader() {
  throw data(null, { status: 404 });
}

/** Never rendered: the loader answers 404, so GET shows the 404 page. */
export default function FormEndpoint() {
  return null;
}
