/**
 * Content-Security-Policy for HTML pages (helmet's is off because API answers are JSON). Inline
 * scripts React Router writes (hydration data, module preloads) carry the per-request nonce;
 * styles allow 'unsafe-inline' because Radix positions popovers with inline style attributes.
 */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  const directives = [
    "default-src 'self'",
    // In dev, Vite's HMR client and React Refresh preamble run as inline/eval'd modules.
    dev ? "script-src 'self' 'unsafe-inline' 'unsafe-eval'" : `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // 'self' covers /api and the /api/ws socket (same origin); dev adds Vite's HMR socket.
    dev ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ];
  return directives.join('; ');
}
