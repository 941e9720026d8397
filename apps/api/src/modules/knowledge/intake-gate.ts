/**
 * Lets requests that add knowledge go before the ingestion workers. On PGlite every statement runs
 * on the main thread through one connection: a request adding items waits behind whatever
 * ingestion statement runs at each of its awaits, so while the workers are busy a batch of 100
 * texts took seconds to be accepted. Workers wait for `idle()` before each statement instead; the
 * wait is capped, so a stream of requests slows ingestion down but never stops it.
 */
export interface IntakeGate {
  /** Runs a request's work; workers hold back their statements until it is done. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves when no request is running, or after `maxWaitMs` at the latest. */
  idle(): Promise<void>;
}

export function createIntakeGate(maxWaitMs: number): IntakeGate {
  let running = 0;
  const waiters = new Set<() => void>();
  return {
    async run(work) {
      running++;
      try {
        return await work();
      } finally {
        running--;
        if (running === 0) for (const wake of waiters) wake();
      }
    },
    idle() {
      if (running === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, maxWaitMs);
        waiters.add(wake);
      });
    },
  };
}

/** Where statements cannot hold up requests (PostgreSQL: a pool of connections, off the main thread). */
export const OPEN_GATE: IntakeGate = { run: (work) => work(), idle: () => Promise.resolve() };
