import { MESSAGE_MAX } from '@cairn/contracts/chat';
import { SEARCH_QUERY_MAX, SEARCH_TOP_K_DEFAULT, SEARCH_TOP_K_MAX } from '@cairn/contracts/knowledge-search';
import { asFreeText } from '@cairn/contracts/text';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import type { Ctx } from '../../lib/ctx.ts';
import { retrieve } from '../../rag/retrieve.ts';
import type { KeyPrincipal } from '../public-api/authenticate-api-key.ts';
import { FollowerClosedError } from '../public-api/follow-answer.ts';
import {
  channelConversation,
  failureOf,
  finalMessage,
  sourcesOf,
  startAnswer,
} from '../public-api/start-answer.ts';
import { itemWithText, listedItems } from './knowledge-text.ts';

/** `cairn://items/{uuid}`: a knowledge item as an MCP resource. */
export const itemUri = (uuid: string) => `cairn://items/${uuid}`;
/** A passage's citation id: stable while its item is not re-indexed. */
export const citationId = (itemUuid: string, chunkId: number) => `${itemUuid}#${chunkId}`;

const KIND_NAMES = { file: 'file', text: 'text note', url: 'web page', qa: 'Q&A pair' } as const;

const ZPassage = z.object({
  citation_id: z.string().describe('Stable id of the passage: `<item uuid>#<chunk id>`.'),
  text: z.string(),
  item_uuid: z.string(),
  item_title: z.string(),
  heading: z.string().nullable(),
  page: z.number().int().nullable(),
  score: z.number(),
  uri: z.string().describe('The knowledge item as a resource (resources/read gives its whole text).'),
});
const ZAskSource = z.object({
  index: z.number().int().describe('The [n] that cites this passage in the answer.'),
  citation_id: z.string(),
  item_uuid: z.string(),
  item_title: z.string(),
  heading: z.string().nullable(),
  page: z.number().int().nullable(),
  snippet: z.string(),
  uri: z.string(),
});

/** Schemas are made once per process: the SDK would make the objects of bare shapes on every request. */
const SEARCH_INPUT = z.object({
  query: z
    .string()
    .min(1)
    .max(SEARCH_QUERY_MAX)
    .describe('What to look for: a question or keywords, in the language of the documents.'),
  top_k: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_TOP_K_MAX)
    .optional()
    .describe(`How many passages to return (default ${SEARCH_TOP_K_DEFAULT}).`),
});
const SEARCH_OUTPUT = z.object({ passages: z.array(ZPassage) });
const ASK_INPUT = z.object({
  question: z.string().min(1).max(MESSAGE_MAX).describe('The question, in full sentences.'),
  conversation_id: z
    .uuid()
    .optional()
    .describe('To continue a conversation: the conversation_id an earlier `ask` returned.'),
});
const ASK_OUTPUT = z.object({
  answer: z.string().describe('The answer, citing its sources as [1], [2] …'),
  not_covered: z.boolean().describe('True when the knowledge holds nothing for the question.'),
  sources: z.array(ZAskSource),
  conversation_id: z.string().describe('Pass back to continue this conversation.'),
});
/**
 * One validator for every server: the SDK makes an Ajv instance per server otherwise (milliseconds,
 * on each stateless request), for elicitation, which these servers never ask for.
 */
const validator = new AjvJsonSchemaValidator();

/** What a client is told at `initialize`: what the knowledge is and how to use the tools. */
export function serverInstructions(applicationName: string, titles: string[], itemCount: number) {
  const sample = titles.map((t) => `"${t}"`).join(', ');
  return (
    `This server is the Cairn application "${applicationName}": an assistant that answers only from its own ` +
    `knowledge base (${itemCount} item${itemCount === 1 ? '' : 's'}${sample ? `, such as ${sample}` : ''}). ` +
    'Use `ask` for a complete answer with numbered citations, exactly as the application gives it in chat ' +
    '(pass its conversation_id back to ask a follow-up). Use `search_knowledge` to read the raw passages ' +
    'yourself. The knowledge items are also resources (cairn://items/{uuid}) whose whole text can be read.'
  );
}

/**
 * The MCP server of one application, as its API key reaches it: made anew for each HTTP request
 * (stateless), so any API process answers any request.
 */
export function buildMcpServer(app: Ctx, principal: KeyPrincipal, instructions?: string) {
  const { application } = principal;
  const server = new McpServer(
    { name: application.name, title: application.name, version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {} },
      jsonSchemaValidator: validator,
      ...(instructions && { instructions }),
    },
  );

  server.registerTool(
    'search_knowledge',
    {
      title: `Search the knowledge of ${application.name}`,
      description:
        `Searches the knowledge base of "${application.name}" (its documents, notes and web pages) and returns ` +
        'the passages that best match the query, best first, each with its source title, heading, page, a ' +
        'relevance score and a stable citation id. Use it to look facts up and quote them; use `ask` instead ' +
        'for a finished, cited answer. Hybrid keyword and semantic search: a few precise words or a question both work.',
      inputSchema: SEARCH_INPUT,
      outputSchema: SEARCH_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    },
    async ({ query, top_k }) => {
      const text = asFreeText(query).trim();
      if (!text) throw new McpError(ErrorCode.InvalidParams, 'The query is empty.');
      const results = await retrieve(
        app,
        { id: application.id, llmModels: application.llmModels },
        text,
        top_k ?? SEARCH_TOP_K_DEFAULT,
      );
      const passages = results.map((r) => ({
        citation_id: citationId(r.item_uuid, r.chunk_id),
        text: r.content,
        item_uuid: r.item_uuid,
        item_title: r.item_title,
        heading: r.heading,
        page: r.page,
        score: r.score,
        uri: itemUri(r.item_uuid),
      }));
      const listing = passages.length
        ? passages
            .map((p, i) => {
              const where = [p.item_title, p.heading, p.page === null ? null : `page ${p.page}`]
                .filter(Boolean)
                .join(' › ');
              return `[${i + 1}] ${where} (citation id ${p.citation_id}, score ${p.score.toFixed(4)})\n${p.text}`;
            })
            .join('\n\n')
        : 'No passage of the knowledge matches this query.';
      return { content: [{ type: 'text', text: listing }], structuredContent: { passages } };
    },
  );

  server.registerTool(
    'ask',
    {
      title: `Ask ${application.name}`,
      description:
        `Asks the assistant "${application.name}" a question and returns its answer, written from its knowledge ` +
        'base only, with inline [n] citations and the cited sources — exactly the answer its own chat gives. When ' +
        'the knowledge does not cover the question, the answer says so (not_covered is true); do not retry it ' +
        'with other words expecting a different result. Returns a conversation_id: pass it back to ask a ' +
        'follow-up in the same conversation, which the assistant then remembers.',
      inputSchema: ASK_INPUT,
      outputSchema: ASK_OUTPUT,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ question, conversation_id }, extra) => {
      const text = asFreeText(question).trim();
      if (!text) throw new McpError(ErrorCode.InvalidParams, 'The question is empty.');
      const chatroom = conversation_id
        ? await channelConversation(app, principal, 'mcp', conversation_id)
        : undefined;
      const { posted, follower } = await startAnswer(app, principal, {
        source: 'mcp',
        chatroom,
        question: text,
        answerRequest: {},
      });
      extra.signal.addEventListener('abort', () => follower.close(), { once: true });
      const message = await finalMessage(follower).catch((error: unknown) => {
        if (error instanceof FollowerClosedError)
          throw new McpError(ErrorCode.ConnectionClosed, 'Cancelled.');
        throw error;
      });
      if (message.status === 'failed') throw new Error(failureOf(message).message);
      const conversationId = posted.chatroom.uuid;
      const sources = sourcesOf(message).map((s) => ({
        index: s.index,
        citation_id: citationId(s.item_uuid, s.chunk_id),
        item_uuid: s.item_uuid,
        item_title: s.item_title,
        heading: s.heading,
        page: s.page,
        snippet: s.snippet,
        uri: itemUri(s.item_uuid),
      }));
      const cited = sources.length
        ? `\n\nSources:\n${sources
            .map(
              (s) =>
                `[${s.index}] ${[s.item_title, s.heading].filter(Boolean).join(' › ')}${s.page === null ? '' : `, page ${s.page}`}`,
            )
            .join('\n')}`
        : '';
      return {
        content: [
          { type: 'text', text: `${message.message}${cited}\n\n(conversation_id: ${conversationId})` },
        ],
        structuredContent: {
          answer: message.message,
          not_covered: message.metadata.not_covered === true,
          sources,
          conversation_id: conversationId,
        },
      };
    },
  );

  server.registerResource(
    'knowledge-item',
    new ResourceTemplate('cairn://items/{uuid}', {
      list: async () => ({
        resources: (await listedItems(app, application.id)).map((item) => ({
          uri: itemUri(item.uuid),
          name: item.title,
          title: item.title,
          description: `A ${KIND_NAMES[item.type]} of the knowledge of ${application.name}; status: ${item.status}${item.status === 'ready' ? ` (${item.chunkCount} passages)` : ''}.`,
          mimeType: 'text/plain',
          _meta: { kind: item.type, status: item.status },
        })),
      }),
    }),
    {
      title: 'Knowledge item',
      description: `A document, note or web page of the knowledge of ${application.name}; reading it gives its extracted text.`,
      mimeType: 'text/plain',
    },
    async (uri, { uuid }) => {
      const id = Array.isArray(uuid) ? uuid[0] : uuid;
      const found = id && z.uuid().safeParse(id).success ? await itemWithText(app, application.id, id) : null;
      // -32002: the specification's "resource not found".
      if (!found)
        throw new McpError(-32002, `No knowledge item ${uri.href.slice(0, 200)} in this application.`);
      const { item, text, truncated } = found;
      const note =
        item.status === 'ready'
          ? truncated
            ? '\n\n[The text is cut here: the item is longer than one read returns.]'
            : ''
          : `[This item is ${item.status}${item.status === 'failed' && item.error ? `: ${item.error}` : ''}; its text is not (yet) available.]`;
      return {
        contents: [
          {
            uri: itemUri(item.uuid),
            mimeType: 'text/plain',
            text: `${text}${note}`,
            _meta: { title: item.title, kind: item.type, status: item.status },
          },
        ],
      };
    },
  );

  return server;
}
