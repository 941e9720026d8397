import { createContext, type RouterContextProvider } from 'react-router';

/**
 * One call to this process's own API routes, as the Fastify mount answers it in process: the status
 * and the parsed JSON body (undefined when there is none). `path` holds the query string; a FormData
 * body is sent as multipart, a string as it is.
 */
export type InProcessCall = (request: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
}) => Promise<{ status: number; body: unknown }>;

/**
 * What the Fastify mount (apps/api/src/plugins/web.ts) hands every loader and action.
 * Kept free of server imports so both sides can name the type.
 */
export interface WebLoadContext {
  /** Base URL of the API, e.g. `http://127.0.0.1:3000` (env `API_URL`, default: this process). */
  apiUrl: string;
  /**
   * How server-side code reaches the API: through this process's own API routes (decision 003), or
   * null when `API_URL` names another host (then over HTTP to `apiUrl`).
   */
  apiInProcess: InProcessCall | null;
  /** Per-request CSP nonce for inline scripts. */
  nonce: string;
  /** Identifies the running web build; the client reloads when it changes. */
  buildId: string;
  /** Cookies get `Secure` when the app is served over https. */
  secureCookies: boolean;
  /** The longest a session lasts (`SESSION_MAX_DAYS`), in seconds: the sign-in cookie's Max-Age. */
  sessionMaxAgeSeconds: number;
  /** The browser's address, forwarded to the API as X-Forwarded-For (its per-IP rate limits). */
  clientIp: string;
  /** `PUBLIC_URL`: where people (and API clients) reach Cairn, shown in copy-ready examples. */
  publicUrl: string;
}

const KEY = Symbol.for('cairn.web-load-context');
type WithContext = typeof globalThis & { [KEY]?: ReturnType<typeof createContext<WebLoadContext>> };

/**
 * The router context that carries it. React Router matches contexts by identity, and this module is
 * loaded twice in one process (by the API from source, and bundled into the web build), so the one
 * instance lives on `globalThis`.
 */
const shared = globalThis as WithContext;
shared[KEY] ??= createContext<WebLoadContext>();
export const webContext = shared[KEY];

/** The Fastify mount's values, in a loader, action or the server entry. */
export function webLoadContext(context: Readonly<RouterContextProvider>): WebLoadContext {
  return context.get(webContext);
}
