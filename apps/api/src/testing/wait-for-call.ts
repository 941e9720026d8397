import { waitFor } from './wait-for.ts';

/** The first call of `method` a fake recorded after its first `since` calls, waiting up to `timeoutMs` for it. */
export async function waitForCall<T extends { method: string }>(
  calls: T[],
  method: string,
  since = 0,
  timeoutMs = 10_000,
): Promise<T> {
  const call = await waitFor(() => calls.slice(since).find((c) => c.method === method), {
    what: `a ${method} call`,
    timeoutMs,
  });
  return call!;
}
