import type { TMessage, TSource } from '@cairn/contracts/chat';
import type { TChatMessageIn } from '@cairn/contracts/public-api';
import {
  RESPONSES_UNSUPPORTED,
  type TResponse,
  type TResponseInputItem,
  type TResponseRequest,
} from '@cairn/contracts/responses';
import { chatrooms, storedResponses } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../../lib/ctx.ts';
import { sendEvents } from '../../lib/send-events.ts';
import type { KeyPrincipal } from './authenticate-api-key.ts';
import { type AnswerStep, FollowerClosedError } from './follow-answer.ts';
import { openEventStream } from './open-event-stream.ts';
import { invalidRequest, modelNotFound, OpenAIError } from './openai-error.ts';
import { requestConversation } from './request-conversation.ts';
import {
  channelConversation,
  endedFailure,
  failureOf,
  finalMessage,
  sourcesOf,
  startAnswer,
  tokensOf,
} from './start-answer.ts';

const compact = (uuid: string) => uuid.replaceAll('-', '');
export const responseIdOf = (answerUuid: string) => `resp_${compact(answerUuid)}`;
/** Only ids this server makes are looked up (a forged one, with NUL or any length, is not found). */
const RESPONSE_ID = /^resp_[0-9a-f]{32}$/;

/** `tools`, `reasoning`, `background`: what would change the answer's kind is refused, naming it. */
function refuseUnsupported(body: TResponseRequest) {
  for (const param of RESPONSES_UNSUPPORTED) {
    const value = body[param];
    const used = Array.isArray(value)
      ? value.length > 0
      : value !== undefined && value !== null && value !== false;
    if (used) {
      throw invalidRequest(
        `\`${param}\` is not supported: the application answers from its knowledge, at once, ${
          param === 'tools'
            ? 'and calls no tools'
            : param === 'reasoning'
              ? 'with no reasoning settings'
              : 'not in the background'
        }. Leave \`${param}\` out.`,
        param,
        'unsupported_parameter',
      );
    }
  }
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== null && choice !== 'none' && choice !== 'auto') {
    throw invalidRequest(
      "Only 'none' or 'auto' is supported: tools are not.",
      'tool_choice',
      'unsupported_parameter',
    );
  }
}

/** `input` as the chat-message list Chat Completions reads (the same rules, named `input[…]`). */
function inputMessages(input: TResponseRequest['input']): TChatMessageIn[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return input.map((item: TResponseInputItem, at) => {
    if (item.type !== undefined && item.type !== 'message') {
      throw invalidRequest(
        `Only message items are supported; input[${at}] has type '${item.type.slice(0, 40)}'.`,
        `input[${at}].type`,
      );
    }
    const content =
      typeof item.content === 'string'
        ? item.content
        : item.content.map((part, j) => {
            if (part.type !== 'input_text' && part.type !== 'output_text') {
              throw invalidRequest(
                `Only text content is supported; input[${at}].content[${j}] has type '${part.type.slice(0, 40)}'.`,
                `input[${at}].content[${j}].type`,
              );
            }
            return { type: 'text', text: part.text };
          });
    return { role: item.role, content };
  });
}

/** Code spans and fences, where `[1]` is code, not a citation (as the chat's renderer reads them). */
const CODE = /(```[\s\S]*?(?:```|$)|`[^`\n]*`)/g;
const CITATION = /\[(\d+(?:\s*,\s*\d+)*)\](?!\()/g;

/**
 * Each citation of the text (`[1]`, `[1, 2]`, outside code) as OpenAI's `file_citation`
 * annotation: the cited knowledge item (uuid and title), and where the citation stands.
 */
export function annotationsOf(text: string, sources: TSource[]) {
  const byIndex = new Map(sources.map((s) => [s.index, s]));
  const annotations: Array<{ type: 'file_citation'; file_id: string; filename: string; index: number }> = [];
  let offset = 0;
  text.split(CODE).forEach((piece, i) => {
    if (i % 2 === 0) {
      for (const match of piece.matchAll(CITATION)) {
        for (const n of match[1]!.split(',')) {
          const source = byIndex.get(Number(n.trim()));
          if (source) {
            annotations.push({
              type: 'file_citation',
              file_id: source.item_uuid,
              filename: source.item_title,
              index: offset + match.index,
            });
          }
        }
      }
    }
    offset += piece.length;
  });
  return annotations;
}

interface ResponseHead {
  id: string;
  createdAt: number;
  model: string;
  conversationId: string;
  instructions: string | null;
  maxOutputTokens: number | null;
  temperature: number | null;
  previousResponseId: string | null;
  store: boolean;
}

/** The response object; without `message`, the one `response.created` announces (nothing written yet). */
function responseObject(head: ResponseHead, message?: TMessage): TResponse {
  const incomplete = message?.metadata.finish_reason === 'length';
  const text = message?.message ?? '';
  const sources = message ? sourcesOf(message) : [];
  const tokens = message ? tokensOf(message) : null;
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    status: message ? (incomplete ? 'incomplete' : 'completed') : 'in_progress',
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: head.instructions,
    max_output_tokens: head.maxOutputTokens,
    model: head.model,
    output: message ? [outputMessage(head, text, sources, incomplete ? 'incomplete' : 'completed')] : [],
    output_text: text,
    parallel_tool_calls: false,
    previous_response_id: head.previousResponseId,
    reasoning: { effort: null, summary: null },
    store: head.store,
    temperature: head.temperature,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    truncation: 'disabled',
    usage: tokens && {
      input_tokens: tokens.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: tokens.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: tokens.input + tokens.output,
    },
    metadata: {},
    conversation_id: head.conversationId,
    sources,
  };
}

function outputMessage(
  head: ResponseHead,
  text: string,
  sources: TSource[],
  status: 'in_progress' | 'completed' | 'incomplete',
) {
  return {
    type: 'message' as const,
    id: `msg_${head.id.slice('resp_'.length)}`,
    status,
    role: 'assistant' as const,
    content: [
      { type: 'output_text' as const, text, annotations: annotationsOf(text, sources), logprobs: [] },
    ],
  };
}

/** The stored conversation a `previous_response_id` continues (a 404 naming it otherwise). */
async function previousConversation(app: Ctx, principal: KeyPrincipal, id: string) {
  const [row] = !RESPONSE_ID.test(id)
    ? []
    : await app.db
        .select({ chatroomUuid: chatrooms.uuid })
        .from(storedResponses)
        .leftJoin(chatrooms, eq(chatrooms.id, storedResponses.chatroomId))
        .where(and(eq(storedResponses.id, id), eq(storedResponses.applicationId, principal.application.id)));
  if (!row?.chatroomUuid) {
    throw new OpenAIError(
      404,
      row
        ? `The conversation of response '${id.slice(0, 100)}' was deleted; start a new one by leaving out previous_response_id.`
        : `Previous response with id '${id.slice(0, 100)}' not found. Only stored responses (store not false) of this application can be continued.`,
      'invalid_request_error',
      'previous_response_not_found',
      'previous_response_id',
    );
  }
  return channelConversation(app, principal, 'api', row.chatroomUuid, 'previous_response_id');
}

async function store(app: Ctx, principal: KeyPrincipal, chatroomUuid: string, response: TResponse) {
  const [room] = await app.db
    .select({ id: chatrooms.id })
    .from(chatrooms)
    .where(eq(chatrooms.uuid, chatroomUuid));
  await app.db
    .insert(storedResponses)
    .values({
      id: response.id,
      applicationId: principal.application.id,
      chatroomId: room?.id ?? null,
      body: response as unknown as Record<string, unknown>,
    })
    .onConflictDoNothing();
}

/** `GET /api/v1/responses/{id}`: a stored response of the key's application. */
export async function getStoredResponse(app: Ctx, principal: KeyPrincipal, id: string) {
  const [row] = !RESPONSE_ID.test(id)
    ? []
    : await app.db
        .select({ body: storedResponses.body })
        .from(storedResponses)
        .where(and(eq(storedResponses.id, id), eq(storedResponses.applicationId, principal.application.id)));
  if (!row) {
    throw new OpenAIError(
      404,
      `Response with id '${id.slice(0, 100)}' not found.`,
      'invalid_request_error',
      'response_not_found',
      'response_id',
    );
  }
  return row.body as unknown as TResponse;
}

/**
 * `POST /api/v1/responses`: the Responses API over the chat's own pipeline, like Chat Completions
 * (decision 040): the question is stored in a conversation of the application (source `api`) and
 * answered as in the chat; the answer comes back as a `response`, whole or as the documented
 * stream of events. Stored responses (the default) can be read back and continued.
 */
export async function createResponse(
  app: Ctx,
  request: FastifyRequest,
  reply: FastifyReply,
  body: TResponseRequest,
) {
  const principal = request.apiKey;
  const { application } = principal;
  if (body.model !== application.uuid) throw modelNotFound(body.model);
  refuseUnsupported(body);
  const conversation = requestConversation(inputMessages(body.input), 'input');
  const instructions = [body.instructions?.trim() ?? '', conversation.instructions]
    .filter(Boolean)
    .join('\n\n');
  const chatroom = body.previous_response_id
    ? await previousConversation(app, principal, body.previous_response_id)
    : undefined;
  const { posted, answerUuid, follower } = await startAnswer(app, principal, {
    source: 'api',
    chatroom,
    question: conversation.question,
    param: 'previous_response_id',
    answerRequest: {
      ...(instructions && { instructions }),
      ...(typeof body.temperature === 'number' && { temperature: body.temperature }),
      ...(typeof body.max_output_tokens === 'number' && { max_tokens: body.max_output_tokens }),
      ...(!chatroom && { history: conversation.history }),
    },
  });
  reply.raw.once('close', () => follower.close());
  const head: ResponseHead = {
    id: responseIdOf(answerUuid),
    createdAt: Math.floor(Date.parse(posted.answer.created_at) / 1000),
    model: application.uuid,
    conversationId: posted.chatroom.uuid,
    instructions: body.instructions ?? null,
    maxOutputTokens: body.max_output_tokens ?? null,
    temperature: body.temperature ?? null,
    previousResponseId: body.previous_response_id ?? null,
    store: body.store !== false,
  };
  reply.header('x-cairn-conversation-id', head.conversationId);
  const finish = async (message: TMessage) => {
    const response = responseObject(head, message);
    if (head.store) await store(app, principal, head.conversationId, response);
    return response;
  };

  if (!body.stream) {
    const message = await finalMessage(follower).catch((error: unknown) => {
      if (error instanceof FollowerClosedError) return null;
      throw error;
    });
    if (!message) return reply.status(499).send();
    if (message.status === 'failed') throw failureOf(message);
    return finish(message);
  }

  const res = reply.raw;
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...fields, sequence_number: sequence++ })}\n\n`;
  const item = { item_id: `msg_${compact(answerUuid)}`, output_index: 0 };
  const part = { ...item, content_index: 0 };

  function openingEvents() {
    const created = responseObject(head);
    const empty = outputMessage(head, '', [], 'in_progress');
    return (
      event('response.created', { response: created }) +
      event('response.in_progress', { response: created }) +
      event('response.output_item.added', { output_index: 0, item: { ...empty, content: [] } }) +
      event('response.content_part.added', { ...part, part: empty.content[0] })
    );
  }

  /**
   * The opening events, sent with the first step in one write. Made now, while the model starts,
   * so that the first delta's write waits only for its own event (they hold nothing the answer
   * decides); sequence numbers 0–3, whatever comes first.
   */
  let opening = openingEvents();
  async function write(step: AnswerStep) {
    const prefix = opening;
    opening = '';
    if (step.kind === 'text') {
      sendEvents(
        res,
        prefix + event('response.output_text.delta', { ...part, delta: step.text, logprobs: [] }),
      );
      return;
    }
    // Mid-stream the status is sent already: the documented `response.failed`, with the reason.
    const fail = (failure: OpenAIError) => {
      const failed = {
        ...responseObject(head),
        status: 'failed',
        error: { code: failure.code, message: failure.message },
      };
      res.end(prefix + event('response.failed', { response: failed }));
    };
    if (step.kind === 'restarted' || step.kind === 'interrupted') {
      follower.close();
      fail(endedFailure(step.kind));
      return;
    }
    const message = step.message;
    if (message.status === 'failed') {
      fail(failureOf(message));
      return;
    }
    const done = responseObject(head, message);
    const output = done.output[0]!;
    const content = output.content[0]!;
    let events = prefix;
    content.annotations.forEach((annotation, annotation_index) => {
      events += event('response.output_text.annotation.added', { ...part, annotation_index, annotation });
    });
    events +=
      event('response.output_text.done', { ...part, text: content.text, logprobs: [] }) +
      event('response.content_part.done', { ...part, part: content }) +
      event('response.output_item.done', { output_index: 0, item: output });
    // Out before the response is stored (a statement): the text's end need not wait for it.
    sendEvents(res, events);
    const stored = await finish(message).catch((err: unknown) => {
      request.log.error({ err }, 'storing a response failed');
      return done;
    });
    res.end(
      event(stored.status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
        response: stored,
      }),
    );
  }

  // As in completeChat: the first step decides the status (an answer that fails before any text is
  // an HTTP error); the reply is then taken over and each step written from the event that brings it.
  let started = false;
  await new Promise<void>((resolve, reject) => {
    res.once('close', () => {
      if (!started) reject(new FollowerClosedError());
    });
    follower.forEach((step) => {
      if (!started) {
        if (step.kind === 'done' && step.message.status === 'failed' && !step.message.message) {
          reject(failureOf(step.message));
          return;
        }
        if (step.kind === 'interrupted') {
          reject(endedFailure(step.kind));
          return;
        }
        started = true;
        openEventStream(reply);
        resolve();
      }
      write(step).catch((err: unknown) => {
        follower.close();
        request.log.error({ err }, 'streaming a response failed');
        res.destroy();
      });
    });
  });
}
