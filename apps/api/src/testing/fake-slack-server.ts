import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForCall } from './wait-for-call.ts';

/** One Web API call the fake received: its method, the bearer token, and its (form) arguments. */
export interface SlackCall {
  method: string;
  token: string | null;
  args: Record<string, unknown>;
}

/** A message the fake workspace holds: what `chat.postMessage` took. */
export interface SlackMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
}

export interface FakeSlack {
  /** The Web API base, as `SLACK_API_URL` takes it (`http://127.0.0.1:port/api`). */
  url: string;
  calls: SlackCall[];
  /** Tokens `auth.test` accepts; any other answers `invalid_auth`. */
  tokens: Map<string, { user_id: string; user: string; team: string }>;
  /** Every message posted, in order (a post whose answer was lost included). */
  messages: SlackMessage[];
  /** Tokens of apps installed without the history and read scopes: those calls answer `missing_scope`. */
  withoutHistory: Set<string>;
  /** At most this many messages in a page of history (Slack may return fewer than `limit`). */
  pageSize: number;
  /** The next calls of this method answer `{ok: false, error}`. */
  failNext(method: string, error: string, times?: number): void;
  /** The next call of this method is carried out, then its connection dropped before the answer. */
  loseNextAnswer(method: string): void;
  /** Resolves with the first call of `method` after `since` calls were recorded (waits for it). */
  waitFor(method: string, since?: number, timeoutMs?: number): Promise<SlackCall>;
  close(): Promise<void>;
}

const HISTORY_METHODS = new Set(['conversations.history', 'conversations.replies', 'users.conversations']);

/** A page of `items` from an offset cursor, as Slack's cursor pagination answers it. */
function page<T>(items: T[], args: Record<string, unknown>, size: number) {
  const from = Number(args.cursor ?? 0) || 0;
  const to = from + Math.min(Number(args.limit ?? 100) || 100, size);
  return { items: items.slice(from, to), next_cursor: to < items.length ? String(to) : '' };
}

/**
 * A local Slack Web API (a third party we do not run, doubled at the wire): `auth.test`,
 * `chat.postMessage` and `chat.postEphemeral`, and the reads that find a message again
 * (`conversations.replies`, `conversations.history` with message metadata only when
 * `include_all_metadata` is asked, `users.conversations` for channel names), with form-encoded
 * arguments as `@slack/web-api` sends them (JSON-valued ones such as `blocks` parsed back).
 */
export async function startFakeSlack(): Promise<FakeSlack> {
  const calls: SlackCall[] = [];
  const tokens = new Map<string, { user_id: string; user: string; team: string }>();
  const failures = new Map<string, string[]>();
  const lost = new Set<string>();
  const messages: SlackMessage[] = [];
  const withoutHistory = new Set<string>();
  /** Channel names the bot posted to, and the IDs Slack gave them. */
  const channelIds = new Map<string, string>();
  let sequence = 0;
  /** Slack's message ids: the time in seconds, and a sequence that keeps them unique and ordered. */
  const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++sequence).padStart(6, '0')}`;
  const fake = { pageSize: 1000 };
  const channelId = (channel: string) => {
    // Slack's IDs are upper case, its channel names lower case.
    if (!channel.startsWith('#') && !/[a-z]/.test(channel)) return channel;
    const name = channel.replace(/^#/, '');
    if (!channelIds.has(name)) channelIds.set(name, `C0NAME${channelIds.size + 1}`);
    return channelIds.get(name)!;
  };
  const shown = (m: SlackMessage, args: Record<string, unknown>) => {
    const { channel: _, metadata, ...rest } = m;
    return String(args.include_all_metadata) === 'true' && metadata ? { ...rest, metadata } : rest;
  };
  /** One page of messages as `conversations.replies` and `conversations.history` answer it. */
  const messagePage = (list: SlackMessage[], args: Record<string, unknown>) => {
    const { items, next_cursor } = page(list, args, fake.pageSize);
    return {
      ok: true,
      messages: items.map((m) => shown(m, args)),
      has_more: next_cursor !== '',
      response_metadata: { next_cursor },
    };
  };
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
      if (HISTORY_METHODS.has(method) && withoutHistory.has(token!))
        return send({
          ok: false,
          error: 'missing_scope',
          needed: 'channels:history',
          provided: 'chat:write',
        });
      if (method === 'auth.test')
        return send({
          ok: true,
          url: 'https://acme.slack.com/',
          team_id: 'T1',
          ...identity,
          bot_id: 'B1',
        });
      if (method === 'chat.postMessage') {
        const message: SlackMessage = {
          channel: channelId(String(args.channel)),
          ts: nextTs(),
          text: String(args.text),
          ...(args.thread_ts !== undefined && { thread_ts: String(args.thread_ts) }),
          ...(args.metadata !== undefined && { metadata: args.metadata as SlackMessage['metadata'] }),
        };
        messages.push(message);
        if (lost.delete(method)) return res.socket?.destroy();
        return send({ ok: true, channel: message.channel, ts: message.ts, message: { text: message.text } });
      }
      if (method === 'conversations.replies') {
        const thread = messages.filter(
          (m) => m.channel === args.channel && (m.ts === args.ts || m.thread_ts === args.ts),
        );
        return send(messagePage(thread, args));
      }
      if (method === 'conversations.history') {
        const top = messages
          .filter(
            (m) =>
              m.channel === args.channel &&
              (m.thread_ts === undefined || m.thread_ts === m.ts) &&
              Number(m.ts) > Number(args.oldest ?? 0),
          )
          .reverse();
        return send(messagePage(top, args));
      }
      if (method === 'users.conversations') {
        const channels = [...channelIds].map(([name, id]) => ({ id, name, is_channel: true }));
        const { items, next_cursor } = page(channels, args, fake.pageSize);
        return send({ ok: true, channels: items, response_metadata: { next_cursor } });
      }
      if (method === 'chat.postEphemeral') return send({ ok: true, message_ts: nextTs() });
      return send({ ok: false, error: 'unknown_method' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api`,
    calls,
    tokens,
    messages,
    withoutHistory,
    get pageSize() {
      return fake.pageSize;
    },
    set pageSize(size: number) {
      fake.pageSize = size;
    },
    loseNextAnswer(method) {
      lost.add(method);
    },
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
