import { type Cookie, createCookie, redirect } from 'react-router';

/**
 * The `auth_token` cookie (DESIGN §4): HttpOnly, SameSite=Lax, Secure under https. The API reads the
 * same cookie for the realtime socket, so it holds the raw token (no signing/encoding on top).
 */
export const AUTH_COOKIE = 'auth_token';
const MAX_AGE = 60 * 60 * 24 * 30;

function authCookie(secure: boolean): Cookie {
  return createCookie(AUTH_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: MAX_AGE,
    // The raw value: the API compares it to its token hashes as it is.
    encode: (v) => v,
    decode: (v) => v,
  });
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

export const setAuthCookie = (token: string, secure: boolean) =>
  authCookie(secure).serialize(token, { maxAge: MAX_AGE });

export const clearAuthCookie = (secure: boolean) => authCookie(secure).serialize('', { maxAge: 0 });

/** Where a visitor returns after signing in: only same-site paths, never `//host` or a scheme. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) {
    return fallback;
  }
  return to;
}

/** The sign-in page for this request, remembering where the visitor wanted to go. */
export function loginRedirect(request: Request, headers?: HeadersInit): Response {
  const url = new URL(request.url);
  const target = `${url.pathname}${url.search}`;
  const search = target === '/' ? '' : `?${new URLSearchParams({ redirectTo: target })}`;
  return redirect(`/login${search}`, { headers });
}
