import { z } from 'zod';
import { ZSource } from './chat.ts';
import { CHAT_MESSAGES_MAX } from './public-api.ts';
import { freeText } from './text.ts';

/**
 * OpenAI's Responses API (`POST /api/v1/responses`), as Cairn answers it: `model` is the
 * application's uuid, the answer is one `message` whose `output_text` cites the knowledge as `[n]`,
 * each citation an annotation. `previous_response_id` continues the stored conversation.
 */

const ZInputPart = z.looseObject({ type: z.string({ error: 'Required' }), text: z.string().optional() });

/** A message item of `input` (`type: "message"` may be left out, as OpenAI allows). */
export const ZResponseInputItem = z.looseObject({
  type: z.string().optional(),
  role: z.string({ error: 'Required' }),
  content: z.union([z.string(), z.array(ZInputPart)], {
    error: 'Must be a string or a list of input_text parts',
  }),
});
export type TResponseInputItem = z.infer<typeof ZResponseInputItem>;

/** Fields that change what the answer is and cannot be honoured: refused with a 400 naming them. */
export const RESPONSES_UNSUPPORTED = ['tools', 'reasoning', 'background'] as const;

export const ZResponseRequest = z.object({
  model: z.string({ error: 'Required' }).min(1, 'Required'),
  input: z.union(
    [
      z.string(),
      z
        .array(ZResponseInputItem)
        .min(1, 'Must contain at least one message')
        .max(CHAT_MESSAGES_MAX, `At most ${CHAT_MESSAGES_MAX} items`),
    ],
    { error: 'Must be a string or a list of message items' },
  ),
  instructions: freeText({ error: 'Must be a string' }).nullish(),
  stream: z.boolean({ error: 'Must be true or false' }).nullish(),
  temperature: z.number({ error: 'Must be a number' }).min(0, 'At least 0').max(2, 'At most 2').nullish(),
  max_output_tokens: z
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'At least 1')
    .max(1_000_000, 'At most 1000000')
    .nullish(),
  previous_response_id: z.string({ error: 'Must be a string' }).max(200, 'Not a response id').nullish(),
  store: z.boolean({ error: 'Must be true or false' }).nullish(),
  // What the answer cannot honour is refused (checked in the handler, which names the parameter);
  // tuning and labelling fields that clients send by default are accepted and ignored.
  tools: z.array(z.unknown(), { error: 'Must be a list' }).nullish(),
  reasoning: z.unknown().optional(),
  background: z.boolean({ error: 'Must be true or false' }).nullish(),
  tool_choice: z.unknown().optional(),
  text: z
    .looseObject({
      format: z
        .looseObject({
          type: z.literal('text', {
            error: "Only type 'text' is supported: the answer is text with inline [n] citations",
          }),
        })
        .nullish(),
    })
    .nullish(),
});
export type TResponseRequest = z.infer<typeof ZResponseRequest>;

export const ZFileCitation = z.object({
  type: z.literal('file_citation'),
  /** The cited knowledge item's uuid. */
  file_id: z.string(),
  /** The cited knowledge item's title. */
  filename: z.string(),
  /** Where in the text the `[n]` that cites it stands. */
  index: z.number().int(),
});

export const ZResponseOutputText = z.object({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(ZFileCitation),
  logprobs: z.array(z.never()),
});

export const ZResponseMessage = z.object({
  type: z.literal('message'),
  id: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
  role: z.literal('assistant'),
  content: z.array(ZResponseOutputText),
});

export const ZResponseUsage = z.object({
  input_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int() }),
  output_tokens: z.number().int(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  total_tokens: z.number().int(),
});

export const ZResponse = z.object({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['in_progress', 'completed', 'incomplete', 'failed']),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  incomplete_details: z.object({ reason: z.literal('max_output_tokens') }).nullable(),
  instructions: z.string().nullable(),
  max_output_tokens: z.number().int().nullable(),
  model: z.string(),
  output: z.array(ZResponseMessage),
  /** The output's text (what the SDKs' `output_text` convenience gives). */
  output_text: z.string(),
  parallel_tool_calls: z.boolean(),
  previous_response_id: z.string().nullable(),
  reasoning: z.object({ effort: z.null(), summary: z.null() }),
  store: z.boolean(),
  temperature: z.number().nullable(),
  text: z.object({ format: z.object({ type: z.literal('text') }) }),
  tool_choice: z.literal('auto'),
  tools: z.array(z.never()),
  top_p: z.number().nullable(),
  truncation: z.literal('disabled'),
  usage: ZResponseUsage.nullable(),
  metadata: z.record(z.string(), z.string()),
  /** Cairn: the stored conversation this response belongs to (a chatroom of the application, source `api`). */
  conversation_id: z.string(),
  /** Cairn: the passages cited as `[n]`. */
  sources: z.array(ZSource),
});
export type TResponse = z.infer<typeof ZResponse>;

/** One server-sent event of a streamed response (its `type` is also the SSE `event:` name). */
export const ZResponseStreamEvent = z.looseObject({ type: z.string(), sequence_number: z.number().int() });
