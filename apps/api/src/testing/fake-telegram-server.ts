import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForCall } from './wait-for-call.ts';

export interface TelegramCall {
  method: string;
  token: string;
  params: Record<string, unknown>;
}

export interface Bot {
  id: number;
  username: string;
  /** What `setWebhook` registered (Telegram refuses `getUpdates` while one is set). */
  webhook: { url: string; secret_token?: string } | null;
  /** Updates not yet confirmed by an offset past them. */
  updates: Array<{ update_id: number } & Record<string, unknown>>;
  nextUpdateId: number;
  waiting: Array<() => void>;
}

export interface FakeTelegram {
  /** The Bot API root, as `TELEGRAM_API_URL` takes it. */
  url: string;
  calls: TelegramCall[];
  /** Registers a bot token `getMe` accepts. */
  addBot(token: string, username: string): Bot;
  /** Queues a text message from a person for `getUpdates`; the update. */
  sendText(token: string, chatId: number, text: string): { update_id: number } & Record<string, unknown>;
  /** A text-message update, not queued (to post to a webhook). */
  textUpdate(token: string, chatId: number, text: string): { update_id: number } & Record<string, unknown>;
  waitFor(method: string, since?: number, timeoutMs?: number): Promise<TelegramCall>;
  close(): Promise<void>;
}

/**
 * A local Telegram Bot API (a third party we do not run, doubled at the wire): `getMe`,
 * `setWebhook` / `deleteWebhook`, `sendMessage` and long-polling `getUpdates` (held open until an
 * update comes or its `timeout` passes), at `/bot<token>/<method>` with JSON bodies as grammY sends.
 */
export async function startFakeTelegram(): Promise<FakeTelegram> {
  const calls: TelegramCall[] = [];
  const bots = new Map<string, Bot>();
  const open = new Set<http.ServerResponse>();
  let messageId = 100;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url ?? '');
      const body = Buffer.concat(chunks).toString('utf8');
      const params = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
      const send = (status: number, payload: unknown) => {
        open.delete(res);
        if (res.writableEnded) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (!match) return send(404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token, method] = match as unknown as [string, string, string];
      calls.push({ method, token, params });
      const bot = bots.get(token);
      if (!bot) return send(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      switch (method) {
        case 'getMe':
          return send(200, {
            ok: true,
            result: { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username },
          });
        case 'setWebhook':
          bot.webhook = { url: String(params.url), secret_token: params.secret_token as string | undefined };
          return send(200, { ok: true, result: true, description: 'Webhook was set' });
        case 'deleteWebhook':
          bot.webhook = null;
          return send(200, { ok: true, result: true });
        case 'sendMessage':
          messageId += 1;
          return send(200, {
            ok: true,
            result: {
              message_id: messageId,
              date: 0,
              chat: { id: params.chat_id, type: 'private' },
              text: params.text,
            },
          });
        case 'getUpdates': {
          if (bot.webhook)
            return send(409, {
              ok: false,
              error_code: 409,
              description: "Conflict: can't use getUpdates method while webhook is active",
            });
          const offset = Number(params.offset ?? 0);
          bot.updates = bot.updates.filter((u) => u.update_id >= offset);
          const answer = () => send(200, { ok: true, result: bot.updates.slice(0, 100) });
          if (bot.updates.length) return answer();
          open.add(res);
          const timer = setTimeout(answer, Math.min(Number(params.timeout ?? 0), 30) * 1000);
          bot.waiting.push(() => {
            clearTimeout(timer);
            answer();
          });
          return;
        }
        default:
          return send(404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function textUpdate(token: string, chatId: number, text: string) {
    const bot = bots.get(token)!;
    messageId += 1;
    return {
      update_id: bot.nextUpdateId++,
      message: {
        message_id: messageId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private', first_name: 'Ada' },
        from: { id: chatId, is_bot: false, first_name: 'Ada' },
        text,
      },
    };
  }

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    addBot(token, username) {
      const bot: Bot = {
        id: 7_000_000 + bots.size,
        username,
        webhook: null,
        updates: [],
        nextUpdateId: 500,
        waiting: [],
      };
      bots.set(token, bot);
      return bot;
    },
    textUpdate,
    sendText(token, chatId, text) {
      const bot = bots.get(token)!;
      const update = textUpdate(token, chatId, text);
      bot.updates.push(update);
      for (const wake of bot.waiting.splice(0)) wake();
      return update;
    },
    waitFor: (method, since, timeoutMs) => waitForCall(calls, method, since, timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
