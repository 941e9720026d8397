import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal local double of Anthropic's API at the wire: `GET /v1/models` and streaming
 * `POST /v1/messages` (the SSE events the Messages API sends), with its error body shape.
 */
export interface FakeAnthropicOptions {
  apiKey: string;
  models?: string[];
  reply?: string;
  failWith?: { status: number; type: string; message: string } | undefined;
}

export interface FakeAnthropic {
  /** Base URL including `/v1`, as the Anthropic client wants it. */
  url: string;
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown }>;
  set(options: Partial<FakeAnthropicOptions>): void;
  close(): Promise<void>;
}

export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  let current: FakeAnthropicOptions = { models: ['claude-fake'], reply: 'Hello from Claude.', ...options };
  const requests: FakeAnthropic['requests'] = [];

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, type: string, message: string) =>
    json(res, status, { type: 'error', error: { type, message } });

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body: unknown = raw ? JSON.parse(raw) : undefined;
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    const o = current;
    if (req.headers['x-api-key'] !== o.apiKey) {
      return error(res, 401, 'authentication_error', 'invalid x-api-key');
    }
    if (req.method === 'GET' && path === '/v1/models') {
      const data = (o.models ?? []).map((id) => ({
        type: 'model',
        id,
        display_name: id,
        created_at: '2025-01-01T00:00:00Z',
      }));
      return json(res, 200, {
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
      });
    }
    if (o.failWith) return error(res, o.failWith.status, o.failWith.type, o.failWith.message);
    if (req.method === 'POST' && path === '/v1/messages') {
      const request = body as { model: string };
      if (!o.models?.includes(request.model)) {
        return error(res, 404, 'not_found_error', `model: ${request.model}`);
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (event: string, data: unknown) =>
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      send('message_start', {
        type: 'message_start',
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          model: request.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 9, output_tokens: 1 },
        },
      });
      send('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      });
      send('ping', { type: 'ping' });
      const pieces = (o.reply ?? '').match(/\S+\s*/g) ?? [];
      for (const text of pieces) {
        send('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text },
        });
      }
      send('content_block_stop', { type: 'content_block_stop', index: 0 });
      send('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: pieces.length },
      });
      send('message_stop', { type: 'message_stop' });
      res.end();
      return;
    }
    error(res, 404, 'not_found_error', `Unknown path ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    requests,
    set(next) {
      current = { ...current, ...next };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
