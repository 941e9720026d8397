import { ZErrorBody } from '@cairn/contracts/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestApp, TEST_PASSWORD, type TestApp } from './testing/test-app.ts';

/**
 * Hostile input on every operation of the app's own OpenAPI document: no answer may be a 5xx, and
 * every error must have the documented body. Operations are discovered from the document, so an
 * endpoint added later is covered without touching this file; requests are sent one at a time in a
 * fixed order, so a run is deterministic.
 */

/** The public OpenAI-compatible API answers errors the way OpenAI does. */
const ZOpenAIError = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
/** The MCP server answers errors as JSON-RPC does. */
const ZJsonRpcError = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.null(),
  error: z.object({ code: z.number().int(), message: z.string() }),
});
const isMcpPath = (path: string) => path === '/api/v1/mcp';
const isOpenAIPath = (path: string) => path.startsWith('/api/v1/');
const isVisitorPath = (path: string) => path.startsWith('/api/widget/v1/');

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  format?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  default?: unknown;
  nullable?: boolean;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

interface HostileRequest {
  /** What is being tried, for the failure report. */
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const FIXED_UUID = '6f1c2b1e-8d4a-4c2e-9b7f-3a5d9e0c1b2a';

/** Nested `{"a":{"a":…}}` `depth` levels deep. */
const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/** Values that stand where any field goes: wrong types, control characters, huge and deep values. */
const HOSTILE_VALUES: Array<[string, unknown]> = [
  ['null', null],
  ['negative number', -1],
  ['float', 1.5],
  ['huge number', 1e308],
  ['boolean', true],
  ['empty string', ''],
  ['NUL', 'a\u0000b'],
  ['control characters', 'a\u0001\u0008\u000b\u001b\u007f\u0085b'],
  ['lone surrogate', 'a\ud800b'],
  ['100k characters', 'x'.repeat(100_000)],
  ['array of NUL strings', ['a\u0000b']],
  ['empty object', {}],
  ['deeply nested object', nested(2000)],
];
/** The text values a multipart field can carry. */
const HOSTILE_TEXT = HOSTILE_VALUES.filter(
  (entry): entry is [string, string] => typeof entry[1] === 'string',
);

/** Path values other than the caller's own: someone else's object, forged and malformed ids. */
const FORGED_PATH_VALUES: Array<[string, string]> = [
  ['nil uuid', '00000000-0000-0000-0000-000000000000'],
  ['unknown uuid', FIXED_UUID],
  ['not a uuid', 'not-a-uuid'],
  ['NUL', '%00'],
  ['traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['long', 'a'.repeat(4000)],
];

/** A value the schema accepts, as far as a schema can tell (enums, formats and bounds). */
function sample(schema: JsonSchema | undefined, key = ''): unknown {
  if (!schema) return 'x';
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives?.[0]) return sample(alternatives[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return FIXED_UUID;
      if (schema.format === 'date-time') return '2099-01-01T00:00:00Z';
      if (schema.format === 'binary') return 'x';
      return `fuzz-${key}`.padEnd(schema.minLength ?? 1, 'x');
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.minItems ? [sample(schema.items)] : [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, sample(schema.properties?.[name], name)]),
      );
    default:
      return 'x';
  }
}

/** Real objects the fuzzer's path parameters can name: the caller's own and someone else's. */
interface World {
  owner: { token: string; apiKey: string; visitorToken: string; userId: number };
  ownIds: Record<string, string>;
  otherIds: Record<string, string>;
  /** Valid bodies for some operations, so field variants reach past the first validation. */
  seeds: Record<string, Record<string, unknown>>;
}

/** Every hostile request for one operation of the document. */
function hostileRequests(world: World, method: string, path: string, op: Operation): HostileRequest[] {
  const credential = isOpenAIPath(path)
    ? `Bearer ${world.owner.apiKey}`
    : isVisitorPath(path)
      ? `Bearer ${world.owner.visitorToken}`
      : `Token ${world.owner.token}`;
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const fill = (values: Record<string, string>) =>
    path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? world.ownIds[name] ?? FIXED_UUID);
  const ownPath = fill({});
  const query = (values: Record<string, string>) => {
    const search = new URLSearchParams(values).toString();
    return search ? `?${search}` : '';
  };
  const auth = { authorization: credential };
  const json = { ...auth, 'content-type': 'application/json' };
  const out: HostileRequest[] = [];
  const add = (label: string, request: Omit<HostileRequest, 'label' | 'method'>) =>
    out.push({ label, method: method.toUpperCase(), ...request });

  const content = op.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  const seed = world.seeds[`${method.toUpperCase()} ${path}`];
  const baseline = {
    ...(jsonSchema ? (sample(jsonSchema) as Record<string, unknown>) : {}),
    ...seed,
  };
  const baselineBody = jsonSchema ? JSON.stringify(baseline) : undefined;
  const withBaseline = baselineBody === undefined ? {} : { body: baselineBody };

  // Credentials: none, malformed, and the other principal's kind.
  add('no credentials', { path: ownPath, headers: { 'content-type': 'application/json' }, ...withBaseline });
  add('malformed credentials', {
    path: ownPath,
    headers: {
      authorization: `Token ${'\u00ff'.repeat(3)}${'x'.repeat(5000)}`,
      'content-type': 'application/json',
    },
    ...withBaseline,
  });

  // Path parameters: someone else's object, then forged and malformed ids.
  for (const param of pathParams) {
    const other = world.otherIds[param.name];
    if (other)
      add(`${param.name}: another user's`, {
        path: fill({ [param.name]: other }),
        headers: json,
        ...withBaseline,
      });
    for (const [label, value] of FORGED_PATH_VALUES) {
      add(`${param.name}: ${label}`, { path: fill({ [param.name]: value }), headers: json, ...withBaseline });
    }
  }

  // Query parameters: every hostile value that a query string can carry.
  for (const param of queryParams) {
    for (const [label, value] of HOSTILE_VALUES) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      add(`query ${param.name}: ${label}`, {
        path: ownPath + query({ [param.name]: String(value) }),
        headers: auth,
      });
    }
  }

  if (method === 'get' || method === 'delete') return out;

  // Whole bodies that are not the documented object.
  const bodies: Array<[string, string, string]> = [
    ['malformed JSON', '{"name": "x",', 'application/json'],
    ['JSON with NUL escape in a key', '{"\\u0000": "x"}', 'application/json'],
    ['JSON array', '[1, 2, 3]', 'application/json'],
    ['JSON string', '"x"', 'application/json'],
    ['JSON null', 'null', 'application/json'],
    [
      'prototype pollution',
      '{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}}',
      'application/json',
    ],
    // Deeper than JSON.stringify can write: built as text.
    ['deeply nested body', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`, 'application/json'],
    ['text/plain', 'hello', 'text/plain'],
    ['unknown content type', '\u0000\u0001', 'application/x-unknown'],
  ];
  for (const [label, body, type] of bodies)
    add(label, { path: ownPath, headers: { ...auth, 'content-type': type }, body });

  // Every documented JSON field, one at a time, with every hostile value.
  for (const name of Object.keys(jsonSchema?.properties ?? {})) {
    for (const [label, value] of HOSTILE_VALUES) {
      add(`${name}: ${label}`, {
        path: ownPath,
        headers: json,
        body: JSON.stringify({ ...baseline, [name]: value }),
      });
    }
  }

  const form = content['multipart/form-data']?.schema;
  if (form) out.push(...multipartRequests(method.toUpperCase(), ownPath, auth, form, baseline));
  return out;
}

/** Multipart bodies: truncated, malformed, and every documented field with hostile text. */
function multipartRequests(
  method: string,
  path: string,
  auth: Record<string, string>,
  schema: JsonSchema,
  baseline: Record<string, unknown>,
): HostileRequest[] {
  const boundary = '----cairn-fuzz-boundary';
  const type = `multipart/form-data; boundary=${boundary}`;
  const properties = schema.properties ?? {};
  const encode = (fields: Array<[string, string]>, files: Array<[string, string, Uint8Array]> = []) => {
    const parts: Buffer[] = [];
    for (const [name, value] of fields) {
      parts.push(
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    }
    for (const [name, filename, data] of files) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${filename}"\r\ncontent-type: text/plain\r\n\r\n`,
        ),
        Buffer.from(data),
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return new Uint8Array(Buffer.concat(parts));
  };
  const valid: Array<[string, string]> = Object.entries(properties)
    .filter(([, s]) => s.format !== 'binary')
    .map(([name, s]) => [name, String(baseline[name] ?? sample(s, name))]);
  const complete = encode(valid);
  const out: HostileRequest[] = [];
  const add = (label: string, body: Uint8Array, contentType = type) =>
    out.push({
      label: `multipart: ${label}`,
      method,
      path,
      headers: { ...auth, 'content-type': contentType },
      body,
    });

  for (const cut of [0.3, 0.6, 0.95])
    add(`truncated at ${cut * 100}%`, complete.subarray(0, Math.floor(complete.length * cut)));
  add('no closing boundary', complete.subarray(0, complete.length - `--${boundary}--\r\n`.length));
  add('no boundary parameter', complete, 'multipart/form-data');
  add('another boundary', complete, 'multipart/form-data; boundary=something-else');
  add('garbage', new Uint8Array(Buffer.from('\u0000\u0001garbage\r\n\r\n--')));
  add(
    'malformed part header',
    new Uint8Array(Buffer.from(`--${boundary}\r\ncontent-disposition\r\n\r\nx\r\n--${boundary}--\r\n`)),
  );
  add('prototype field', encode([...valid, ['__proto__', 'x'], ['constructor.prototype', 'x']]));
  add('NUL in a field name', encode([...valid, ['na\u0000me', 'x']]));
  for (const [name, s] of Object.entries(properties)) {
    if (s.format === 'binary') {
      const withFile = (filename: string, data: Uint8Array) => encode(valid, [[name, filename, data]]);
      add(`${name}: NUL in the file name`, withFile('no\u0000tes.txt', new Uint8Array(Buffer.from('hello'))));
      add(
        `${name}: NUL bytes in a text file`,
        withFile('notes.txt', new Uint8Array(Buffer.from('hello\u0000world\u0000'))),
      );
      add(
        `${name}: binary data named .txt`,
        withFile('notes.txt', new Uint8Array([1, 0, 2, 0, 3, 0, 4, 5, 6, 7])),
      );
      add(`${name}: empty file`, withFile('', new Uint8Array()));
      continue;
    }
    for (const [label, value] of HOSTILE_TEXT) {
      add(`${name}: ${label}`, encode([...valid.filter(([n]) => n !== name), [name, value]]));
    }
  }
  return out;
}

/** DELETEs and logging out undo what the other operations need: they go last, deepest first. */
function order(method: string, path: string): number {
  if (path.endsWith('/logout/')) return 3;
  if (method === 'delete') return 2 - path.split('/').length / 100;
  return 0;
}

describe('hostile input on every /api operation of the OpenAPI document', () => {
  let t: TestApp;
  let world: World;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    // Requests only: no ingestion or answering competes with them (knowledge.test.ts covers NULs
    // inside what is ingested).
    t = await startTestApp({ answerSlots: 0 }, { runWorkers: false });
    const owner = await t.signUp('owner@example.com');
    const other = await t.signUp('other@example.com');
    const setUp = async (token: string, userId: number) => {
      const as = { token };
      const app = await t.call('POST', '/api/applications/', {
        ...as,
        json: { name: 'Fuzzed', 'items[0].type': 'text', 'items[0].value': 'The lantern is lit at dusk.' },
      });
      const appId = app.body.uuid as string;
      const items = await t.call('GET', `/api/applications/${appId}/knowledge/`, as);
      const sent = await t.call('POST', `/api/applications/${appId}/chatrooms/send-message/`, {
        ...as,
        json: {
          chatroom_identifier: 'new_chat',
          message: 'When is the lantern lit?',
          sender_identifier: `reg_${userId}`,
          metadata: { source: 'web' },
          send_to_user: false,
        },
      });
      const provider = await t.call('POST', '/api/model-providers/', {
        ...as,
        json: { kind: 'openai_compatible', name: 'Nowhere', base_url: 'http://127.0.0.1:9/v1' },
      });
      const providerId = provider.body.uuid as string;
      const model = await t.call('POST', `/api/model-providers/${providerId}/models/`, {
        ...as,
        json: { name: 'nothing', model_type: 'text' },
      });
      const key = await t.call('POST', `/api/applications/${appId}/api-keys/`, {
        ...as,
        // Enough for every fuzzed /api/v1 request to pass the key's own limit and reach validation.
        json: { name: 'fuzz', requests_per_minute: 10_000 },
      });
      // A website visitor of this application, with limits high enough for every fuzzed request.
      const origin = 'https://shop.example.com';
      await t.call('PATCH', `/api/applications/${appId}/widget/`, {
        ...as,
        json: {
          enabled: true,
          allowed_origins: [origin],
          limits: { visitor_messages_per_hour: 10_000, ip_messages_per_hour: 100_000 },
        },
      });
      const embed = await (
        await fetch(`${t.url}/embed/v1/${appId}?origin=${encodeURIComponent(origin)}`)
      ).text();
      const visitorToken = JSON.parse(
        /id="cairn-boot" type="application\/json">(.*?)<\/script>/.exec(embed)![1]!,
      ).token as string;
      const visited = await t.call('POST', '/api/widget/v1/messages/', {
        headers: { authorization: `Bearer ${visitorToken}` },
        json: { conversation_uuid: null, message: 'When is the lantern lit?' },
      });
      const session = (await t.call('GET', '/api/me/sessions/', as)).body[0];
      const ids: Record<string, string> = {
        sessionId: session?.id?.toString(),
        appId,
        conversationId: visited.body.conversation?.uuid,
        itemId: items.body[0]?.uuid,
        chatroomId: sent.body.chatroom?.uuid,
        messageId: sent.body.message?.uuid,
        providerId,
        modelId: model.body.uuid,
        keyId: key.body.uuid,
      };
      for (const [name, id] of Object.entries(ids))
        if (typeof id !== 'string') throw new Error(`no ${name} to fuzz with`);
      return { ids, apiKey: key.body.key as string, visitorToken };
    };
    const mine = await setUp(owner.token, owner.user.id);
    const theirs = await setUp(other.token, other.user.id);
    world = {
      owner: {
        token: owner.token,
        apiKey: mine.apiKey,
        visitorToken: mine.visitorToken,
        userId: owner.user.id,
      },
      ownIds: mine.ids,
      otherIds: theirs.ids,
      seeds: {
        'POST /api/register/': { email: 'new-user@example.com', password: TEST_PASSWORD },
        'POST /api/login/': { email: 'owner@example.com', password: TEST_PASSWORD },
        'POST /api/applications/{appId}/chatrooms/send-message/': {
          chatroom_identifier: 'new_chat',
          message: 'hello',
          sender_identifier: `reg_${owner.user.id}`,
        },
        'POST /api/model-providers/': {
          kind: 'openai_compatible',
          name: 'Nowhere',
          base_url: 'http://127.0.0.1:9/v1',
        },
        'POST /api/me/email/': { email: 'owner-moved@example.com', password: 'not-the-password' },
        'POST /api/applications/': { name: 'Fuzzed', 'items[0].type': 'text', 'items[0].value': 'hello' },
        'POST /api/applications/{appId}/knowledge/': { 'items[0].type': 'text', 'items[0].value': 'hello' },
      },
    };
    doc = (await t.call('GET', '/api/docs/json')).body as OpenApiDocument;
  }, 60_000);
  afterAll(() => t?.close());

  // The answers a first fuzzing run found to be 500s (issue 13), each with what it must be now.
  it.each([
    ['/api/register/', { email: 'nul\u0000@example.com', password: TEST_PASSWORD }],
    ['/api/login/', { email: 'owner\u0000@example.com', password: TEST_PASSWORD }],
    ['/api/verify-email/resend/', { email: 'owner@example.com\u0000' }],
    ['/api/forgot-password/', { email: '\u0000owner@example.com' }],
  ])('NUL in the e-mail of POST %s is a 400 naming the field', async (path, json) => {
    const before = t.outbox().length;
    const res = await t.call('POST', path, { json });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail: 'email: Invalid email address',
      code: 'invalid',
      errors: { email: ['Invalid email address'] },
    });
    expect(t.outbox()).toHaveLength(before);
  });

  it('NUL in a name is a 400 naming the field, and nothing changes', async () => {
    const token = world.owner.token;
    const me = await t.call('PATCH', '/api/me/', {
      token,
      json: { first_name: 'Ada\u0000', last_name: 'L' },
    });
    expect(me.status).toBe(400);
    expect(me.body.detail).toBe('first_name: Must not contain control characters');
    expect((await t.call('GET', '/api/me/', { token })).body.last_name).toBe('');
    const last = await t.call('PATCH', '/api/me/', { token, json: { last_name: 'Love\u0000lace' } });
    expect(last.body.errors).toEqual({ last_name: ['Must not contain control characters'] });

    const appPath = `/api/applications/${world.ownIds.appId}/`;
    const renamed = await t.call('PATCH', appPath, {
      token,
      json: { name: 'Bad\u0000name', temperature: 1 },
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.errors).toEqual({ name: ['Must not contain control characters'] });
    expect((await t.call('GET', appPath, { token })).body).toMatchObject({
      name: 'Fuzzed',
      temperature: 0.2,
    });
  });

  it('control characters in instructions (free text) are removed; tabs and line ends stay', async () => {
    const res = await t.call('PATCH', `/api/applications/${world.ownIds.appId}/`, {
      token: world.owner.token,
      json: { instructions: 'Be\u0000 brief.\u0007\n\tCite\u001b sources.\r\n' },
    });
    expect(res.status).toBe(200);
    expect(res.body.instructions).toBe('Be brief.\n\tCite sources.\r\n');
  });

  it('a truncated multipart body is a 400 and creates nothing', async () => {
    const token = world.owner.token;
    const before = (await t.call('GET', '/api/applications/', { token })).body.length;
    const form = new FormData();
    form.set('name', 'Half');
    form.set('items[0].type', 'file');
    form.set('items[0].file', new Blob(['x'.repeat(10_000)]), 'notes.txt');
    const encoded = new Response(form);
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    for (const path of ['/api/applications/', `/api/applications/${world.ownIds.appId}/knowledge/`]) {
      const res = await fetch(t.url + path, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': encoded.headers.get('content-type')! },
        body: bytes.subarray(0, bytes.length / 2),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        detail: 'The multipart/form-data body could not be read: it is incomplete or malformed.',
        code: 'invalid',
      });
    }
    expect((await t.call('GET', '/api/applications/', { token })).body).toHaveLength(before);
  });

  it('answers every hostile request without a 5xx, with the documented error body', async () => {
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, ops]) =>
        Object.entries(ops)
          .filter(([method]) => METHODS.includes(method))
          .map(([method, op]) => ({ method, path, op })),
      )
      .sort((a, b) => order(a.method, a.path) - order(b.method, b.path));
    expect(operations.length).toBeGreaterThan(30);

    const failures: string[] = [];
    let sent = 0;
    for (const { method, path, op } of operations) {
      for (const request of hostileRequests(world, method, path, op)) {
        sent++;
        const problem = await send(t.url, request);
        if (problem) failures.push(`${request.method} ${path} — ${request.label}: ${problem}`);
      }
    }
    console.log(`hostile input: ${sent} requests over ${operations.length} operations`);
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 120_000);
});

/** Sends one request; returns what is wrong with the answer, or undefined. */
async function send(base: string, request: HostileRequest): Promise<string | undefined> {
  const res = await fetch(base + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  // An event stream that was opened (the visitor's) never ends by itself: close it.
  if (res.ok && res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return undefined;
  }
  const text = await res.text();
  if (res.status >= 500) return `${res.status} ${text.slice(0, 200)}`;
  if (res.status < 400) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${res.status} with a body that is not JSON: ${text.slice(0, 100)}`;
  }
  const path = request.path.split('?')[0] ?? '';
  const shape = isMcpPath(path) ? ZJsonRpcError : isOpenAIPath(path) ? ZOpenAIError : ZErrorBody;
  const parsed = shape.safeParse(body);
  return parsed.success ? undefined : `${res.status} with an undocumented error body: ${text.slice(0, 200)}`;
}
