import { createFetch, type FetchOptions } from 'ofetch';
import type { RouterContextProvider } from 'react-router';
import { ApiError, MESSAGE_TOKEN_MISSING, normalizeError, RETRY_STATUS_CODES } from './api-error';
import { webLoadContext } from './load-context';
import { readAuthToken } from './session.server';

/**
 * The request helper (specification §7): the web app reaches data only through the API's routes (over
 * HTTP, or in process when the API runs in the same process: the load context's `apiFetch`).
 * Authenticated calls send `Authorization: Token <token>`; without a token they fail locally with
 * 'Authentication token missing'. Failures are normalised into ApiError (see api-error.ts).
 */

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Body = Record<string, unknown> | FormData;

export interface RequestOptions {
  /** Send the token (default true). */
  auth?: boolean;
  body?: Body;
  query?: Record<string, string | number | undefined>;
}

export interface ApiClient {
  readonly token: string | null;
  request<T>(method: Method, path: string, opts?: RequestOptions): Promise<T>;
  get<T>(path: string, opts?: Omit<RequestOptions, 'body'>): Promise<T>;
  post<T>(path: string, body?: Body, opts?: Omit<RequestOptions, 'body'>): Promise<T>;
  put<T>(path: string, body?: Body, opts?: Omit<RequestOptions, 'body'>): Promise<T>;
  patch<T>(path: string, body?: Body, opts?: Omit<RequestOptions, 'body'>): Promise<T>;
  delete<T>(path: string, opts?: Omit<RequestOptions, 'body'>): Promise<T>;
}

export function createApiClient({
  baseURL,
  token,
  forwardedFor,
  userAgent,
  fetch = globalThis.fetch,
}: {
  baseURL: string;
  token: string | null;
  /** The browser's address: SSR calls come from loopback, the API's per-IP limits need the real one. */
  forwardedFor?: string;
  /** The browser's user agent: a sign-in records it to name the session's device. */
  userAgent?: string | undefined;
  fetch?: typeof globalThis.fetch;
}): ApiClient {
  const ofetch = createFetch({ fetch });
  const request = async <T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
    if (userAgent) headers['user-agent'] = userAgent;
    if (opts.auth !== false) {
      if (!token) throw new ApiError(MESSAGE_TOKEN_MISSING, { status: 401 });
      headers.authorization = `Token ${token}`;
    }
    const options: FetchOptions<'json'> = {
      method,
      baseURL,
      headers,
      query: opts.query,
      responseType: 'json',
      // Retry once for methods without a body; never for PATCH/POST/PUT/DELETE.
      retry: BODY_METHODS.has(method) ? 0 : 1,
      retryStatusCodes: RETRY_STATUS_CODES,
      retryDelay: 100,
      timeout: 30_000,
    };
    if (opts.body !== undefined) options.body = opts.body;
    try {
      return (await ofetch<T, 'json'>(path, options)) as T;
    } catch (error) {
      throw normalizeError(error);
    }
  };
  return {
    token,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
  };
}

/** The client for one loader/action call: API base URL from the load context, token from the cookie. */
export function apiFor({
  request,
  context: router,
}: {
  request: Request;
  context: Readonly<RouterContextProvider>;
}): ApiClient {
  const context = webLoadContext(router);
  return createApiClient({
    baseURL: context.apiUrl,
    token: readAuthToken(request),
    forwardedFor: context.clientIp,
    userAgent: request.headers.get('user-agent') ?? undefined,
    fetch: context.apiFetch,
  });
}
