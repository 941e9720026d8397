import { type FetchOptions, ofetch } from 'ofetch';
import type { RouterContextProvider } from 'react-router';
import { ApiError, MESSAGE_TOKEN_MISSING, normalizeError, RETRY_STATUS_CODES } from './api-error';
import { type InProcessCall, webLoadContext } from './load-context';
import { readAuthToken } from './session.server';

/**
 * The request helper (specification §7): the web app reaches data only through the API's routes (over
 * HTTP, or in process when the API runs in the same process: the load context's `apiInProcess`).
 * Authenticated calls send `Authorization: Token <token>`; without a token they fail locally with
 * 'Authentication token missing'. Failures are normalised into ApiError (see api-error.ts).
 */

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RETRY_DELAY_MS = 100;

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
  inProcess,
}: {
  baseURL: string;
  token: string | null;
  /** The browser's address: SSR calls come from loopback, the API's per-IP limits need the real one. */
  forwardedFor?: string;
  /** The browser's user agent: a sign-in records it to name the session's device. */
  userAgent?: string | undefined;
  /** This process's own API routes (decision 111): no Request, Response or socket per call. */
  inProcess?: InProcessCall | null;
}): ApiClient {
  const request = async <T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
    if (userAgent) headers['user-agent'] = userAgent;
    if (opts.auth !== false) {
      if (!token) throw new ApiError(MESSAGE_TOKEN_MISSING, { status: 401 });
      headers.authorization = `Token ${token}`;
    }
    // Retry once for methods without a body; never for PATCH/POST/PUT/DELETE.
    const retries = BODY_METHODS.has(method) ? 0 : 1;
    if (inProcess) return callInProcess<T>(inProcess, method, path, headers, opts, retries);
    const options: FetchOptions<'json'> = {
      method,
      baseURL,
      headers,
      query: opts.query,
      responseType: 'json',
      retry: retries,
      retryStatusCodes: RETRY_STATUS_CODES,
      retryDelay: RETRY_DELAY_MS,
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

/**
 * One call through the API's routes in process, with the rules ofetch applies over HTTP: the query's
 * undefined values left out, a plain body sent as JSON, one retry after 100 ms on the same statuses,
 * an error status thrown as the ApiError its body gives. No timeout: nothing waits on a network.
 */
async function callInProcess<T>(
  inProcess: InProcessCall,
  method: Method,
  path: string,
  headers: Record<string, string>,
  opts: RequestOptions,
  retries: number,
): Promise<T> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(opts.query ?? {})) {
    if (value !== undefined) query.append(name, String(value));
  }
  const search = query.size ? `${path.includes('?') ? '&' : '?'}${query}` : '';
  let body: string | FormData | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  for (let attempt = 0; ; attempt++) {
    const res = await inProcess({
      method,
      path: `${path}${search}`,
      headers,
      ...(body !== undefined && { body }),
    });
    if (res.status < 400) return res.body as T;
    if (attempt < retries && RETRY_STATUS_CODES.includes(res.status)) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      continue;
    }
    throw normalizeError({ status: res.status, data: res.body });
  }
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
    inProcess: context.apiInProcess,
  });
}
