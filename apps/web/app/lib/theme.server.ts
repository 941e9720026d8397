import { DEFAULT_THEME, isMode, isTheme, MODE_COOKIE, THEME_COOKIE, type ThemePrefs } from './theme';

const YEAR = 60 * 60 * 24 * 365;

function cookies(request: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

/** The visitor's theme, read during SSR so the first paint already has it (no flash). */
export function readTheme(request: Request): ThemePrefs {
  const c = cookies(request);
  const theme = c.get(THEME_COOKIE);
  const mode = c.get(MODE_COOKIE);
  return {
    theme: isTheme(theme) ? theme : DEFAULT_THEME.theme,
    mode: isMode(mode) ? mode : DEFAULT_THEME.mode,
  };
}

export function themeCookies(prefs: ThemePrefs, secure: boolean): string[] {
  const attrs = `Path=/; Max-Age=${YEAR}; SameSite=Lax${secure ? '; Secure' : ''}`;
  return [`${THEME_COOKIE}=${prefs.theme}; ${attrs}`, `${MODE_COOKIE}=${prefs.mode}; ${attrs}`];
}
