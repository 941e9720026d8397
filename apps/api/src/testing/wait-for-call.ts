/** The first call of `method` recorded after the first `since` calls, waiting up to `timeoutMs` for it. */
export async function waitForCall<T extends { method: string }>(
  calls: T[],
  method: string,
  since = 0,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const call = calls.slice(since).find((c) => c.method === method);
    if (call) return call;
    if (Date.now() > deadline) throw new Error(`no ${method} call within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
