import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server speaking the OpenAI-compatible wire format (what OpenAI, vLLM, LM Studio,
 * llama.cpp and Ollama's `/v1` speak): `GET /models`, streaming and non-streaming
 * `POST /chat/completions`, `POST /embeddings`, plus Ollama's `GET /api/tags`.
 * Tests double the third-party model API here, at the wire, and change its behaviour with `set`.
 */
export interface FakeOpenAIOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>` or get a 401. */
  apiKey?: string | undefined;
  /** Models `/models` lists; chat or embeddings for another model answer 404. */
  models?: string[];
  /** The assistant's answer (split into word chunks when streaming), or a function of the request body. */
  reply?: string | ((body: ChatCompletionBody) => string);
  /** Delay before each streamed chunk. */
  chunkDelayMs?: number;
  /** Delay before the response headers (a slow or hung provider). */
  headersDelayMs?: number;
  /** Every model call fails with this status and message (e.g. 429, 500). */
  failWith?: { status: number; message: string } | undefined;
  /** With `failWith`: only the next this many model calls fail, then calls succeed again. */
  failTimes?: number | undefined;
  /** With `failWith`: sent as `retry-after-ms`, the wait OpenAI asks for with a 429. */
  retryAfterMs?: number | undefined;
  /** Vector size of `/embeddings` answers. */
  embeddingDimensions?: number;
  /** Paths this server does not have (answer 404), e.g. `/api/tags` for a non-Ollama server. */
  missing?: string[];
}

export interface ChatCompletionBody {
  model: string;
  stream?: boolean;
  temperature?: number;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
}

export interface RecordedRequest {
  method: string;
  /** The path without its `/v1` prefix and query (`/chat/completions`). */
  path: string;
  /** The request target as sent (`/v1/chat/completions?x=1`). */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FakeOpenAI {
  /** Base URL including `/v1`, as an OpenAI-compatible client wants it. */
  url: string;
  /** The server origin (Ollama-style base URL, without `/v1`). */
  origin: string;
  requests: RecordedRequest[];
  set(options: Partial<FakeOpenAIOptions>): void;
  close(): Promise<void>;
}

const DEFAULTS: Required<
  Omit<FakeOpenAIOptions, 'apiKey' | 'failWith' | 'failTimes' | 'retryAfterMs' | 'missing'>
> = {
  models: ['fake-chat', 'fake-embed'],
  reply: 'Hello from the fake model.',
  chunkDelayMs: 0,
  headersDelayMs: 0,
  embeddingDimensions: 8,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A deterministic unit vector for a text: equal texts give equal vectors. */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let i = 0; values.length < dimensions; i++) {
    const digest = createHash('sha256').update(`${i}:${text}`).digest();
    for (let j = 0; j + 1 < digest.length && values.length < dimensions; j += 2) {
      values.push(digest.readUInt16BE(j) / 65535 - 0.5);
    }
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((v) => v / norm);
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  let current: FakeOpenAIOptions = { ...DEFAULTS, ...options };
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();

  const json = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: http.OutgoingHttpHeaders = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const error = (
    res: http.ServerResponse,
    status: number,
    message: string,
    type: string,
    headers: http.OutgoingHttpHeaders = {},
  ) => json(res, status, { error: { message, type, code: null } }, headers);

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // keep the raw text
    }
    const path = (req.url ?? '/').split('?')[0]!.replace(/^\/v1(?=\/)/, '');
    requests.push({ method: req.method ?? 'GET', path, url: req.url ?? '/', headers: req.headers, body });
    const o = { ...DEFAULTS, ...current };

    if (o.missing?.includes(path)) return error(res, 404, `Unknown path ${path}`, 'invalid_request_error');
    if (o.headersDelayMs) await sleep(o.headersDelayMs);
    if (res.destroyed) return;
    if (o.apiKey && req.headers.authorization !== `Bearer ${o.apiKey}`) {
      return error(res, 401, 'Incorrect API key provided.', 'invalid_request_error');
    }
    if (req.method === 'GET' && path === '/models') {
      return json(res, 200, {
        object: 'list',
        data: o.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
      });
    }
    if (req.method === 'GET' && path === '/api/tags') {
      return json(res, 200, { models: o.models.map((name) => ({ name, model: name, size: 1 })) });
    }
    if (o.failWith) {
      if (o.failTimes !== undefined) {
        const left = o.failTimes - 1;
        current =
          left > 0
            ? { ...current, failTimes: left }
            : { ...current, failWith: undefined, failTimes: undefined };
      }
      const wait = o.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(o.retryAfterMs) };
      return error(res, o.failWith.status, o.failWith.message, 'fake_error', wait);
    }

    if (req.method === 'POST' && path === '/chat/completions') {
      const request = body as ChatCompletionBody;
      if (!o.models.includes(request.model)) {
        return error(res, 404, `The model \`${request.model}\` does not exist.`, 'invalid_request_error');
      }
      const text = typeof o.reply === 'function' ? o.reply(request) : o.reply;
      const usage = { prompt_tokens: 11, completion_tokens: text.split(/\s+/).length, total_tokens: 0 };
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
      const id = 'chatcmpl-fake';
      const created = Math.floor(Date.now() / 1000);
      if (!request.stream) {
        return json(res, 200, {
          id,
          object: 'chat.completion',
          created,
          model: request.model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage,
        });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      const base = { id, object: 'chat.completion.chunk', created, model: request.model };
      send({
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
      });
      for (const piece of text.match(/\S+\s*/g) ?? []) {
        if (o.chunkDelayMs) await sleep(o.chunkDelayMs);
        if (res.destroyed) return;
        send({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
      }
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      send({ ...base, choices: [], usage });
      res.end('data: [DONE]\n\n');
      return;
    }

    if (req.method === 'POST' && path === '/embeddings') {
      const request = body as { model: string; input: string | string[] };
      if (!o.models.includes(request.model)) {
        return error(res, 404, `The model \`${request.model}\` does not exist.`, 'invalid_request_error');
      }
      const inputs = Array.isArray(request.input) ? request.input : [request.input];
      return json(res, 200, {
        object: 'list',
        model: request.model,
        data: inputs.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: fakeEmbedding(text, o.embeddingDimensions),
        })),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      });
    }
    error(res, 404, `Unknown path ${path}`, 'invalid_request_error');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    set(next) {
      current = { ...current, ...next };
    },
    async close() {
      // Hung test responses would keep close() waiting forever: cut them.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
