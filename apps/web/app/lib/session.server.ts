import { redirect } from 'react-router';

/**
 * The `auth_token` cookie (DESIGN §4): HttpOnly, SameSite=Lax, Secure under https. The API reads the
 * same cookie for the realtime socket, so it holds the raw token (no signing/encoding on top).
 */
export const AUTH_COOKIE = 'auth_token';
/** Serialised by hand: React Router's createCookie would base64/JSON-encode the value. */
function serializeAuthCookie(value: string, maxAge: number, secure: boolean): string {
  const attrs = [`${AUTH_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax'];
  if (secure) attrs.push('Secure');
  return attrs.join('; ');
}

function cookieValue(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? null : value;
    }
  }
  return null;
}

export const readAuthToken = (request: Request) => cookieValue(request, AUTH_COOKIE);

/**
 * Tokens are URL-safe; anything else is refused rather than written into a header. The cookie
 * lives as long as the session may (`SESSION_MAX_DAYS`): the API ends an idle session sooner.
 */
export function setAuthCookie(token: string, secure: boolean, maxAgeSeconds: number): string {
  if (!/^[\w.~-]+$/.test(token)) throw new Error('Unexpected token format');
  return serializeAuthCookie(token, maxAgeSeconds, secure);
}

export const clearAuthCookie = (secure: boolean) => serializeAuthCookie('', 0, secure);

/**
 * Where a visitor returns after signing in: only a path of this origin. Refused: anything not starting
 * with one `/`, any backslash (browsers read it as `/`), and any control character or space (URL
 * parsers drop TAB/CR/LF, so `/\t/evil.com` would become `//evil.com`).
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//')) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(to)) return fallback;
  // The browser resolves the Location against our origin: it must stay there.
  const base = 'http://cairn.invalid';
  return new URL(to, base).origin === base ? to : fallback;
}

/** The sign-in page for this request, remembering where the visitor wanted to go. */
export function loginRedirect(request: Request, headers?: HeadersInit): Response {
  const url = new URL(request.url);
  const target = `${url.pathname}${url.search}`;
  const search = target === '/' ? '' : `?${new URLSearchParams({ redirectTo: target })}`;
  return redirect(`/login${search}`, { headers });
}
