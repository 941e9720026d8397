/**
 * The widget's origin rule, without zod: the settings page checks a site as it is added, on the
 * spot, without shipping the schemas (widget.ts builds `ZOrigin` on it, so both say the same).
 */

export const ORIGIN_MAX = 300;
export const NOT_AN_ORIGIN =
  'Must be an origin such as https://shop.example.com (scheme, host and port only)';

/**
 * An exact origin as the browser writes `location.origin` (lowercase host, default port dropped),
 * or null when the text is not one: scheme http or https, host and optional port; no path, query,
 * fragment, wildcard or credentials. The text is trimmed and at most `ORIGIN_MAX` long already.
 */
export function originOf(value: string): string | null {
  if (value.includes('*')) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' || /^[a-z]+:\/\/[^/]+\/.+/i.test(value)) return null;
  return url.origin;
}
