import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { waitFor } from './wait-for.ts';

/** One request a receiver got, and whether each known secret verifies it (`standardwebhooks`). */
export interface Received {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed payload, when the signature verified with the receiver's current secret. */
  payload: unknown;
  verifiedWith: string[];
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A local webhook receiver for tests (a third party we do not run, doubled at the wire): it
 * records every request, checks its signature with the `standardwebhooks` package against every
 * secret it was given, and answers with the next scripted answer (200 when the script is empty).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const script: Answer[] = [];
  const secrets: string[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      let payload: unknown;
      const verifiedWith: string[] = [];
      for (const secret of secrets) {
        try {
          payload = new Webhook(secret).verify(body, headers);
          verifiedWith.push(secret);
        } catch {
          // not signed with this one
        }
      }
      received.push({ at: Date.now(), path: req.url ?? '/', headers, body, payload, verifiedWith });
      const answer = script.shift() ?? { status: 200, body: 'ok' };
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    script,
    secrets,
    /** Waits until `n` requests arrived. */
    async waitFor(n: number, timeoutMs = 10_000): Promise<Received[]> {
      await waitFor(() => received.length, { until: (got) => got >= n, what: `${n} requests`, timeoutMs });
      return received;
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
