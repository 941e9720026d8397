import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWith, conversationsOf } from '../../testing/chat-fixtures.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { NOT_COVERED_ANSWER } from '../chatrooms/answer/no-answer.ts';
import { joinChunks } from './knowledge-text.ts';

const WARRANTY = {
  title: 'X200 manual',
  text: '# Warranty\n\nThe X200 comes with a three-year warranty covering parts and labour. Register the device within 30 days.\n\n# Batteries\n\nBatteries are covered for one year from the date of purchase.',
};
const SECRET_RECIPE = {
  title: 'Bob recipes',
  text: 'The zucchini gratin of Bob uses saffron and hazelnuts. Bake it for forty minutes.',
};

let t: TestApp;
let owner: { token: string };
let bob: { token: string };
let appA: { uuid: string; items: string[] };
let appB: { uuid: string; items: string[] };
let keyA: string;
let keyB: string;
const open: Client[] = [];

const createKey = async (app: string, token: string, json: Record<string, unknown> = {}) => {
  const res = await t.call('POST', `/api/applications/${app}/api-keys/`, {
    token,
    json: { name: 'MCP', ...json },
  });
  expect(res.status).toBe(201);
  return res.body as { key: string; uuid: string };
};

/** The official SDK client over Streamable HTTP, as Claude Desktop or Cursor connect. */
async function connect(key: string) {
  const client = new Client({ name: 'cairn-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  open.push(client);
  return client;
}

interface RpcAnswer {
  result: { protocolVersion: string; isError?: boolean; content: Array<{ text: string }> };
  error: { code: number; message: string };
}
const json = async (res: Response) => (await res.json()) as RpcAnswer;
/** A raw JSON-RPC POST (what clients cannot be made to send). */
const rpc = (body: unknown, headers: Record<string, string> = {}, raw?: string) =>
  fetch(`${t.url}/api/v1/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${keyA}`,
      ...headers,
    },
    body: raw ?? JSON.stringify(body),
  });
const call = (name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: args },
});

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.signUp();
  bob = await t.signUp();
  appA = await applicationWith(t, owner.token, [WARRANTY]);
  appB = await applicationWith(t, bob.token, [SECRET_RECIPE]);
  keyA = (await createKey(appA.uuid, owner.token)).key;
  keyB = (await createKey(appB.uuid, bob.token)).key;
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t.close();
});

describe('MCP server (official SDK client, Streamable HTTP)', () => {
  it('initializes with the application as server, its knowledge in the instructions, stateless', async () => {
    const client = await connect(keyA);
    expect(client.getServerVersion()).toMatchObject({ name: 'Support', title: 'Support' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    const instructions = client.getInstructions()!;
    expect(instructions).toContain('"Support"');
    expect(instructions).toContain('"X200 manual"');
    expect(instructions).toContain('1 item');
    expect(await client.ping()).toEqual({});
    // Stateless: no session id, so any API process can answer the next request.
    const res = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect((await json(res)).result.protocolVersion).toBe('2025-06-18');
    const get = await fetch(`${t.url}/api/v1/mcp`, {
      headers: { authorization: `Bearer ${keyA}`, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
  });

  it('lists both tools with descriptions, input and output schemas', async () => {
    const client = await connect(keyA);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'search_knowledge']);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(100);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const search = tools.find((tool) => tool.name === 'search_knowledge')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties!)).toEqual(['query', 'top_k']);
    expect(search.annotations).toMatchObject({ readOnlyHint: true });
    const ask = tools.find((tool) => tool.name === 'ask')!;
    expect(ask.inputSchema.required).toEqual(['question']);
  });

  it('search_knowledge returns passages as structured content and as text', async () => {
    const client = await connect(keyA);
    const result = await client.callTool({
      name: 'search_knowledge',
      arguments: { query: 'How long is the X200 warranty?', top_k: 2 },
    });
    expect(result.isError).toBeFalsy();
    const { passages } = result.structuredContent as {
      passages: Array<Record<string, unknown> & { citation_id: string; score: number }>;
    };
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(2);
    expect(passages[0]).toMatchObject({
      item_uuid: appA.items[0],
      item_title: 'X200 manual',
      heading: 'Warranty',
      page: null,
      uri: `cairn://items/${appA.items[0]}`,
    });
    expect(passages[0]!.text).toContain('three-year warranty');
    expect(passages[0]!.citation_id).toMatch(new RegExp(`^${appA.items[0]}#\\d+$`));
    const again = await client.callTool({ name: 'search_knowledge', arguments: { query: 'X200 warranty' } });
    expect(
      (again.structuredContent as typeof result.structuredContent & { passages: unknown[] }).passages,
    ).toEqual(expect.arrayContaining([expect.objectContaining({ citation_id: passages[0]!.citation_id })]));
    const text = (result.content as Array<{ type: string; text: string }>)[0]!;
    expect(text.type).toBe('text');
    expect(text.text).toContain('[1] X200 manual › Warranty');
    expect(text.text).toContain(passages[0]!.citation_id);
  });

  it('ask gives the chat answer with sources and a conversation the owner sees (source mcp), and continues it', async () => {
    const client = await connect(keyA);
    const result = await client.callTool({
      name: 'ask',
      arguments: { question: 'How long is the warranty of the X200?' },
    });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      answer: string;
      not_covered: boolean;
      sources: Array<{ index: number; item_uuid: string; uri: string }>;
      conversation_id: string;
    };
    expect(answer.answer).toContain('three-year warranty');
    expect(answer.answer).toContain('[1]');
    expect(answer.not_covered).toBe(false);
    expect(answer.sources[0]).toMatchObject({
      index: 1,
      item_uuid: appA.items[0],
      uri: `cairn://items/${appA.items[0]}`,
    });
    expect((result.content as Array<{ text: string }>)[0]!.text).toContain(answer.conversation_id);

    const rooms = await conversationsOf(t, appA.uuid);
    expect(rooms.find((r) => r.uuid === answer.conversation_id)).toMatchObject({ source: 'mcp' });
    const stored = await t.call(
      'GET',
      `/api/applications/${appA.uuid}/chatrooms/${answer.conversation_id}/messages/`,
      { token: owner.token },
    );
    // Exactly what the chat stored: the same text, the same sources.
    expect(stored.body.messages.map((m: { message: string }) => m.message)).toEqual([
      'How long is the warranty of the X200?',
      answer.answer,
    ]);
    expect(stored.body.messages[0].sender_identifier).toMatch(/^mcp_[0-9a-f-]{36}$/);

    const followUp = await client.callTool({
      name: 'ask',
      arguments: { question: 'Are batteries covered?', conversation_id: answer.conversation_id },
    });
    const next = followUp.structuredContent as typeof answer;
    expect(next.conversation_id).toBe(answer.conversation_id);
    expect(next.answer).toContain('Batteries are covered for one year');
  });

  it('ask says when the knowledge does not cover a question', async () => {
    const client = await connect(keyA);
    const result = await client.callTool({
      name: 'ask',
      arguments: { question: 'What is the capital of Mongolia?' },
    });
    expect(result.structuredContent).toMatchObject({
      answer: NOT_COVERED_ANSWER,
      not_covered: true,
      sources: [],
    });
  });

  it('lists the knowledge items as resources and reads their extracted text', async () => {
    const client = await connect(keyA);
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({
        uri: `cairn://items/${appA.items[0]}`,
        name: 'X200 manual',
        mimeType: 'text/plain',
        _meta: { kind: 'text', status: 'ready' },
      }),
    ]);
    expect(resources[0]!.description).toContain('status: ready');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates[0]!.uriTemplate).toBe('cairn://items/{uuid}');
    const read = await client.readResource({ uri: `cairn://items/${appA.items[0]}` });
    const content = read.contents[0] as { uri: string; text: string; mimeType: string };
    expect(content).toMatchObject({ uri: `cairn://items/${appA.items[0]}`, mimeType: 'text/plain' });
    expect(content.text).toContain('three-year warranty');
    expect(content.text).toContain('Batteries are covered for one year');
    await expect(client.readResource({ uri: `cairn://items/${appB.items[0]}` })).rejects.toThrow(
      /No knowledge item/,
    );
    await expect(client.readResource({ uri: 'cairn://items/not-a-uuid' })).rejects.toThrow(
      /No knowledge item/,
    );
  });

  it("another application's key never reaches this application's knowledge or conversations", async () => {
    const mine = await connect(keyA);
    const theirs = await connect(keyB);
    expect(theirs.getServerVersion()?.name).toBe('Support');
    const found = await theirs.callTool({ name: 'search_knowledge', arguments: { query: 'X200 warranty' } });
    expect(JSON.stringify(found.structuredContent)).not.toContain('X200');
    const fromMine = await mine.callTool({
      name: 'search_knowledge',
      arguments: { query: 'zucchini gratin saffron' },
    });
    expect(JSON.stringify(fromMine)).not.toMatch(/saffron|hazelnut/i);
    const { resources } = await theirs.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`cairn://items/${appB.items[0]}`]);
    const asked = await mine.callTool({ name: 'ask', arguments: { question: 'Warranty of the X200?' } });
    const conversation = (asked.structuredContent as { conversation_id: string }).conversation_id;
    const stolen = await theirs.callTool({
      name: 'ask',
      arguments: { question: 'And batteries?', conversation_id: conversation },
    });
    expect(stolen.isError).toBe(true);
    expect((stolen.content as Array<{ text: string }>)[0]!.text).toContain('No conversation');
  });
});

describe('MCP errors', () => {
  it('refuses a missing key, a session token and a malformed key with 401 and a JSON-RPC error', async () => {
    for (const authorization of ['', `Token ${owner.token}`, `Bearer ${owner.token}`, 'Bearer cairn_nope']) {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization });
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.any(String) },
      });
    }
    const client = new Client({ name: 'cairn-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
    });
    await expect(client.connect(transport)).rejects.toThrow(/session tokens are not/);
  });

  it('stops a revoked key at once, mid-session', async () => {
    const key = await createKey(appA.uuid, owner.token);
    const client = await connect(key.key);
    await client.listTools();
    const deleted = await t.call('DELETE', `/api/applications/${appA.uuid}/api-keys/${key.uuid}/`, {
      token: owner.token,
    });
    expect(deleted.status).toBe(204);
    await expect(client.listTools()).rejects.toThrow(/401|Incorrect API key/);
  });

  it("counts every MCP request against the key's per-minute limit (429 with retry-after)", async () => {
    const key = await createKey(appA.uuid, owner.token, { requests_per_minute: 3 });
    // initialize and `initialized`: two requests (the client's GET for a stream is a 405 that costs nothing)
    const client = await connect(key.key);
    await client.callTool({ name: 'search_knowledge', arguments: { query: 'warranty' } });
    const error = await client
      .callTool({ name: 'search_knowledge', arguments: { query: 'warranty' } })
      .catch((e) => e);
    expect(error).toMatchObject({ code: 429 }); // StreamableHTTPError: the HTTP status
    expect(String(error)).toContain('Rate limit reached for this API key: 3 requests per minute');
    const raw = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer ${key.key}` });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(raw.headers.get('x-ratelimit-limit-requests')).toBe('3');
  });

  it('answers an unknown tool, wrong argument types and huge arguments with MCP errors', async () => {
    const client = await connect(keyA);
    const unknown = await client.callTool({ name: 'delete_everything', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as Array<{ text: string }>)[0]!.text).toContain(
      'Tool delete_everything not found',
    );

    for (const [name, args] of [
      ['search_knowledge', { query: 42 }],
      ['search_knowledge', { query: 'x', top_k: 'many' }],
      ['search_knowledge', { query: 'x', top_k: 500 }],
      ['search_knowledge', {}],
      ['ask', { question: ['a'] }],
      ['ask', { question: 'Hi', conversation_id: 'not-a-uuid' }],
      ['ask', { question: 'q'.repeat(9000) }],
      ['search_knowledge', { query: 'q'.repeat(2001) }],
    ] as const) {
      const res = await rpc(call(name, args));
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.result.isError, JSON.stringify(args).slice(0, 80)).toBe(true);
      expect(body.result.content[0]!.text).toMatch(/Input validation error/);
    }
    const empty = await client.callTool({ name: 'ask', arguments: { question: '\u0000\u0007 ' } });
    expect(empty.isError).toBe(true);
    expect((empty.content as Array<{ text: string }>)[0]!.text).toContain('The question is empty');

    // Over the 1 MB body limit: refused before anything is parsed, still in JSON-RPC's shape.
    const huge = await rpc(call('search_knowledge', { query: 'x'.repeat(1_100_000) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    // Not JSON at all, and not JSON-RPC.
    const garbage = await rpc(undefined, {}, '{"jsonrpc": "2.0",');
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    const notRpc = await rpc({ hello: 'world' });
    expect(notRpc.status).toBe(400);
    expect((await json(notRpc)).error.code).toBe(-32700);
  });

  it('refuses a foreign Host or Origin (DNS rebinding protection), before the key is looked at', async () => {
    /** fetch() cannot set Host: a plain HTTP request, as a rebound browser page would send it. */
    const ping = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${t.url}/api/v1/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${keyA}`,
            ...headers,
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      });
    const evil = await ping({ host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.message).toContain('DNS rebinding');
    expect((await ping({ host: 'evil.example.com:80' })).status).toBe(403);
    expect((await ping({ origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await ping({ origin: 'null' })).status).toBe(403);
    expect((await ping({ host: 'localhost:1234', origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await ping({ host: '127.0.0.1' })).status).toBe(200);
  });
});

describe('an item’s extracted text', () => {
  it('is rebuilt from overlapping chunks once, with gaps as blank lines', () => {
    const doc = 'One two. Three four. Five six.\n\nSeven.';
    const piece = (start: number, end: number) => ({
      content: doc.slice(start, end),
      startOffset: start,
      endOffset: end,
    });
    expect(joinChunks([piece(0, 20), piece(9, 30), piece(32, 38)])).toBe(doc);
    expect(joinChunks([])).toBe('');
  });
});
