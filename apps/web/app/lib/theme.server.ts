import { parseThemeCookie, THEME_COOKIE, type ThemePrefs } from './theme';

const YEAR = 60 * 60 * 24 * 365;

function cookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The visitor's theme, read during SSR so the first paint already has it (no flash). */
export const readTheme = (request: Request): ThemePrefs => parseThemeCookie(cookie(request, THEME_COOKIE));

/** One cookie for both settings (readable by scripts on purpose: it holds no secret). */
export function themeCookie(prefs: ThemePrefs, secure: boolean): string {
  return `${THEME_COOKIE}=${prefs.theme}.${prefs.mode}; Path=/; Max-Age=${YEAR}; SameSite=Lax${secure ? '; Secure' : ''}`;
}
