import { data, redirect } from 'react-router';
import { webLoadContext } from '../lib/load-context';
import { safeRedirect } from '../lib/session.server';
import { isMode, isTheme } from '../lib/theme';
import { readTheme, themeCookie } from '../lib/theme.server';
import type { Route } from './+types/theme';

/** Stores the theme choice in cookies; the root loader reads them during SSR. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const current = readTheme(request);
  const theme = form.get('theme');
  const mode = form.get('mode');
  const prefs = { theme: isTheme(theme) ? theme : current.theme, mode: isMode(mode) ? mode : current.mode };
  const headers = { 'Set-Cookie': themeCookie(prefs, webLoadContext(context).secureCookies) };
  // Without JavaScript the form posts here directly: go back where it came from.
  const back = form.get('redirectTo');
  if (back) return redirect(safeRedirect(back), { headers });
  return data({ ok: true, prefs }, { headers });
}

export function loader() {
  throw data(null, { status: 404 });
}

/** Never rendered: the loader answers 404, so GET shows the 404 page. */
export default function FormEndpoint() {
  return null;
}
