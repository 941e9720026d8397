import { type RunningServer, startRunningServer } from '../apps/api/src/testing/server-process';

export type { Mail } from '../apps/api/src/testing/mail';
export type { RunningServer };

/**
 * The e2e's Cairn: `tsx apps/api/src/server.ts` in production mode on a free port with a fresh
 * DATA_DIR, PGlite and the outbox (the shared server starter of `apps/api/src/testing`); `env` adds
 * to its environment (a fake's URL, ALLOW_PRIVATE_URLS). Resolves once healthy.
 */
export function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return startRunningServer(
    {
      NODE_ENV: 'production',
      SMTP_URL: '',
      API_URL: '',
      // The fixtures register many users from one machine; each one claims its own client address
      // (X-Forwarded-For) through loopback, listed as the proxy, instead of sharing 127.0.0.1's limits.
      TRUST_PROXY: '127.0.0.1',
      ...env,
    },
    // Most of the worker fixture's 90 s: tsx compiles the server first, slow on a loaded machine.
    { timeoutMs: 85_000 },
  );
}
