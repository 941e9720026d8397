/** Small helpers shared by the bench scripts. */
export { adminQuery } from '@cairn/db/testing';

/** The value after `flag` on the command line (`--rounds 100`), if any. */
export function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** A JSON/multipart caller of the API at `baseUrl()`; a non-2xx answer throws with its body. */
export function apiCaller(baseUrl: () => string) {
  return async function call<T>(
    method: string,
    pathname: string,
    token?: string,
    body?: unknown,
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Token ${token}`;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(baseUrl() + pathname, { method, headers, body: payload });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${pathname} → ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}
