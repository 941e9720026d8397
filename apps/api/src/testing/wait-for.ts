export interface WaitForOptions<T> {
  /** Done when this holds for the value read (default: the value is truthy). */
  until?: (value: T) => boolean;
  /** What is awaited, in words, for the timeout's message (default: the reader's source). */
  what?: string;
  /** Default 10 s: generous, since the machine running the tests may be loaded. */
  timeoutMs?: number;
  /** Pause between two reads (default 25 ms). */
  intervalMs?: number;
}

/**
 * Reads until the value is the one awaited and returns it; past the timeout, fails naming what was
 * awaited and the last value read. The one poller of the tests, the API's, the e2e's and the benches'.
 */
export async function waitFor<T>(read: () => T | Promise<T>, options: WaitForOptions<T> = {}): Promise<T> {
  const { until = Boolean, timeoutMs = 10_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline) {
      const what = options.what ?? read.toString().replace(/\s+/g, ' ').slice(0, 200);
      throw new Error(`waitFor: not done within ${timeoutMs} ms: ${what}; last value: ${describe(value)}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

function describe(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 500);
  } catch {
    return String(value);
  }
}
