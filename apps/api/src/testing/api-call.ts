// any: a test reads bodies of many shapes, unchecked
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string | undefined;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Raw body (sent as-is, e.g. malformed JSON). */
  raw?: string;
}

// any: as above
export type ApiCall = <T = any>(
  method: string,
  pathname: string,
  options?: CallOptions,
) => Promise<TestResponse<T>>;

/** The tests' HTTP client for a Cairn at `url` (in process or a process of its own): JSON bodies parsed. */
export function apiCall(url: string): ApiCall {
  return async <T>(method: string, pathname: string, options: CallOptions = {}): Promise<TestResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Token ${options.token}`;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    } else if (options.raw !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = options.raw;
    }
    const res = await fetch(url + pathname, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if (res.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T };
  };
}
