import { isIP } from 'node:net';
import { PUBLIC_API_BASE_PATH } from '@cairn/contracts/api-keys';
import { knowledgeItems } from '@cairn/db/schema';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { count, desc, eq } from 'drizzle-orm';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { apiKeyAuthenticator, type KeyPrincipal } from '../public-api/authenticate-api-key.ts';
import { OpenAIError, toOpenAIError } from '../public-api/openai-error.ts';
import { buildMcpServer, serverInstructions } from './mcp-server.ts';

export const MCP_PATH = `${PUBLIC_API_BASE_PATH}/mcp`;

/** JSON-RPC's "server error" range: what the transport answers before any message is read. */
const TRANSPORT_ERROR = -32000;

/** An HTTP-level refusal as MCP clients read one: the status, and a JSON-RPC error with the reason. */
function sendMcpError(reply: FastifyReply, error: OpenAIError) {
  reply.headers(error.headers);
  return reply.status(error.status).send({
    jsonrpc: '2.0',
    id: null,
    error: { code: TRANSPORT_ERROR, message: error.message, data: { type: error.type, code: error.code } },
  });
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);

/**
 * DNS rebinding protection (the Streamable HTTP transport's "MUST validate Origin"): a rebinding
 * attack reaches this server under the attacker's host name, so a `Host` or `Origin` naming any
 * host but PUBLIC_URL's (or loopback, or a bare IP address, which no DNS answer can rebind) is
 * refused before the key is looked at.
 */
export function hostGuard(publicUrl: string) {
  const own = new URL(publicUrl).hostname;
  const allowed = (hostname: string) =>
    hostname === own || LOOPBACK_NAMES.has(hostname) || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;
  return async function guardHost(request: FastifyRequest) {
    const host = request.hostname;
    if (!allowed(host.toLowerCase())) {
      throw new OpenAIError(
        403,
        `The Host header names '${host.slice(0, 100)}', not this server (${own}): refused as DNS rebinding. Behind a proxy, pass the Host header on (or set PUBLIC_URL).`,
        'invalid_request_error',
        'invalid_host',
      );
    }
    const origin = request.headers.origin;
    if (origin === undefined) return;
    let hostname: string | null = null;
    try {
      hostname = new URL(origin).hostname.toLowerCase();
    } catch {
      // `null` or garbage: no site of ours.
    }
    if (hostname === null || !allowed(hostname)) {
      throw new OpenAIError(
        403,
        `Requests from the web origin '${origin.slice(0, 100)}' are refused (DNS rebinding protection): only ${new URL(publicUrl).origin} may call the MCP server from a browser.`,
        'invalid_request_error',
        'invalid_origin',
      );
    }
  };
}

/** The application's name and a few item titles, for `initialize` only (the one request that shows them). */
async function instructionsOf(app: FastifyInstance, principal: KeyPrincipal) {
  const { application } = principal;
  const [titles, [total]] = await Promise.all([
    app.db
      .select({ title: knowledgeItems.title })
      .from(knowledgeItems)
      .where(eq(knowledgeItems.applicationId, application.id))
      .orderBy(desc(knowledgeItems.createdAt))
      .limit(5),
    app.db
      .select({ n: count() })
      .from(knowledgeItems)
      .where(eq(knowledgeItems.applicationId, application.id)),
  ]);
  return serverInstructions(
    application.name,
    titles.map((t) => t.title.slice(0, 80)),
    total?.n ?? 0,
  );
}

const isInitialize = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some(
    (m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize',
  );

/** The headers the SDK's transport reads (the rest would be copied for nothing on every request). */
const TRANSPORT_HEADERS = [
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
];

/** The request as a web-standard Request for the SDK's transport (the body is handed over parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${request.hostname}${request.url}`, { method: request.method, headers });
}

const ZJsonRpcError = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.null(),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
});

/**
 * The MCP server of each application (Streamable HTTP, stateless): `PUBLIC_URL/api/v1/mcp`,
 * reached with the application's API key like the rest of `/api/v1` — same key check, per-minute
 * limit (every MCP request counts) and conversation log (source `mcp`) — but failing as MCP does.
 */
async function mcp(fastify: FastifyInstance) {
  // The public API's reading of every failure (status, message, headers), in JSON-RPC's shape.
  fastify.setErrorHandler((error: FastifyError, request, reply) =>
    sendMcpError(reply, toOpenAIError(error, request)),
  );
  fastify.addHook('onRequest', hostGuard(fastify.config.publicUrl));
  const authenticate = apiKeyAuthenticator(fastify);

  const schema = {
    tags: ['openai-compatible'],
    security: [{ apiKey: [] }],
    response: { 401: ZJsonRpcError, 403: ZJsonRpcError, 429: ZJsonRpcError },
  };

  fastify.post(
    MCP_PATH,
    {
      onRequest: authenticate,
      schema: {
        ...schema,
        summary: 'MCP server of the application (Streamable HTTP)',
        description:
          'The application as a Model Context Protocol server (Streamable HTTP transport, protocol 2025-06-18 ' +
          'and later), for Claude Desktop, Cursor, VS Code and any MCP client: one JSON-RPC message (or batch) ' +
          'per POST, answered with `application/json`. Stateless: no `Mcp-Session-Id`; GET and DELETE are 405. ' +
          'Send `Accept: application/json, text/event-stream`. Tools: `search_knowledge {query, top_k?}` (the ' +
          'passages, as structured content and text) and `ask {question, conversation_id?}` (the cited answer, ' +
          'stored as a conversation with source `mcp`). Resources: the knowledge items, `cairn://items/{uuid}` ' +
          "(listable; reading one gives its extracted text). Every request counts against the key's " +
          'per-minute limit. A `Host` or `Origin` naming another host is refused (403, DNS rebinding protection).',
        body: z.unknown(),
      },
    },
    async (request, reply) => {
      const principal = request.apiKey;
      const instructions = isInitialize(request.body) ? await instructionsOf(fastify, principal) : undefined;
      const server = buildMcpServer(fastify, principal, instructions);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // A client that goes away cancels what its request started (an `ask` stops waiting).
      reply.raw.once('close', () => void server.close());
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      // Its bytes as they are: a string would be decoded here only for the socket to encode it
      // again (a search answer carries its passages twice, as text and as structured content).
      const body = Buffer.from(await response.arrayBuffer());
      void server.close();
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      // The transport's own answer (200, 202 for a notification, 4xx for a bad message), passed on as is.
      // (The route's typed statuses are its error schemas; the transport's are whatever it decided.)
      return reply
        .code(response.status as Parameters<typeof reply.code>[0])
        .send(body.byteLength ? body : undefined);
    },
  );

  // Stateless: no stream to open and no session to end (the specification's 405 for both), whoever
  // asks; a client's attempt to open a stream costs its key nothing.
  for (const method of ['GET', 'DELETE'] as const) {
    fastify.route({
      method,
      url: MCP_PATH,
      schema: { hide: true },
      handler: (_request, reply) =>
        reply
          .status(405)
          .header('allow', 'POST')
          .send({
            jsonrpc: '2.0',
            id: null,
            error: {
              code: TRANSPORT_ERROR,
              message: 'Method not allowed: this MCP server is stateless; POST only.',
            },
          }),
    });
  }
}

export default async function mcpRoutes(app: FastifyInstance) {
  await app.register(mcp);
}
