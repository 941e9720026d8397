import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForCall } from './wait-for-call.ts';

/** One Web API call the fake received: its method, the bearer token, and its (form) arguments. */
export interface SlackCall {
  method: string;
  token: string | null;
  args: Record<string, unknown>;
}

export interface FakeSlack {
  /** The Web API base, as `SLACK_API_URL` takes it (`http://127.0.0.1:port/api`). */
  url: string;
  calls: SlackCall[];
  /** Tokens `auth.test` accepts; any other answers `invalid_auth`. */
  tokens: Map<string, { user_id: string; user: string; team: string }>;
  /** The next calls of this method answer `{ok: false, error}`. */
  failNext(method: string, error: string, times?: number): void;
  /** Resolves with the first call of `method` after `since` calls were recorded (waits for it). */
  waitFor(method: string, since?: number, timeoutMs?: number): Promise<SlackCall>;
  close(): Promise<void>;
}

/**
 * A local Slack Web API (a third party we do not run, doubled at the wire): `auth.test`,
 * `chat.postMessage` and `chat.postEphemeral`, with form-encoded arguments as `@slack/web-api`
 * sends them (JSON-valued ones such as `blocks` parsed back).
 */
export async function startFakeSlack(): Promise<FakeSlack> {
  const calls: SlackCall[] = [];
  const tokens = new Map<string, { user_id: string; user: string; team: string }>();
  const failures = new Map<string, string[]>();
  let ts = 1_700_000_000;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
      const auth = req.headers.authorization ?? '';
      const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
      const body = Buffer.concat(chunks).toString('utf8');
      const args: Record<string, unknown> = {};
      if ((req.headers['content-type'] ?? '').includes('json')) Object.assign(args, JSON.parse(body || '{}'));
      else
        for (const [key, value] of new URLSearchParams(body)) {
          try {
            args[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
          } catch {
            args[key] = value;
          }
        }
      calls.push({ method, token, args });
      const send = (payload: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const failure = failures.get(method)?.shift();
      if (failure) return send({ ok: false, error: failure });
      const identity = token ? tokens.get(token) : undefined;
      if (!identity) return send({ ok: false, error: 'invalid_auth' });
      if (method === 'auth.test')
        return send({
          ok: true,
          url: 'https://acme.slack.com/',
          team_id: 'T1',
          ...identity,
          bot_id: 'B1',
        });
      if (method === 'chat.postMessage') {
        ts += 1;
        return send({ ok: true, channel: args.channel, ts: `${ts}.000100`, message: { text: args.text } });
      }
      if (method === 'chat.postEphemeral') return send({ ok: true, message_ts: `${ts}.000200` });
      return send({ ok: false, error: 'unknown_method' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api`,
    calls,
    tokens,
    failNext(method, error, times = 1) {
      failures.set(
        method,
        Array.from({ length: times }, () => error),
      );
    },
    waitFor: (method, since, timeoutMs) => waitForCall(calls, method, since, timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
