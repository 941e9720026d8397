import { z } from 'zod';
import { ZSource } from './chat.ts';

/**
 * The OpenAI-compatible public API (`/api/v1`): the Chat Completions wire format, so that every
 * OpenAI client library talks to an application. `model` is the application's uuid. Two fields are
 * Cairn's own and ignored by standard clients: `conversation_id` (send it back to continue a stored
 * conversation without resending its history) and `sources` (the passages the answer cites as `[n]`).
 */

export const CHAT_ROLES = ['system', 'developer', 'user', 'assistant'] as const;
/** The most messages one request may carry (the history beyond the last ten turns is not used). */
export const CHAT_MESSAGES_MAX = 1000;

const ZContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

export const ZChatMessageIn = z.object({
  role: z.string({ error: 'Required' }),
  content: z
    .union([z.string(), z.array(ZContentPart)], { error: 'Must be a string or a list of text parts' })
    .nullish(),
  name: z.string().optional(),
});
export type TChatMessageIn = z.infer<typeof ZChatMessageIn>;

const ZTokenLimit = z
  .number({ error: 'Must be a number' })
  .int('Must be a whole number')
  .min(1, 'At least 1')
  .max(1_000_000, 'At most 1000000')
  .nullish();

export const ZChatCompletionRequest = z.object({
  model: z.string({ error: 'Required' }).min(1, 'Required'),
  messages: z
    .array(ZChatMessageIn, { error: 'Must be a list of messages' })
    .min(1, 'Must contain at least one message')
    .max(CHAT_MESSAGES_MAX, `At most ${CHAT_MESSAGES_MAX} messages`),
  stream: z.boolean({ error: 'Must be true or false' }).nullish(),
  stream_options: z
    .object({ include_usage: z.boolean({ error: 'Must be true or false' }).nullish() })
    .nullish(),
  temperature: z.number({ error: 'Must be a number' }).min(0, 'At least 0').max(2, 'At most 2').nullish(),
  max_tokens: ZTokenLimit,
  max_completion_tokens: ZTokenLimit,
  n: z.literal(1, { error: 'Only n = 1 is supported: one answer per request' }).nullish(),
  // What the answer cannot honour is refused rather than dropped: a client that asked for tool calls
  // or JSON would otherwise take a plain cited answer for what it asked. Empty or neutral values, which
  // clients send by default, pass.
  tools: z
    .array(z.unknown(), { error: 'Must be a list' })
    .max(0, 'Tools are not supported: the application answers from its knowledge and calls no tools')
    .nullish(),
  tool_choice: z
    .enum(['none', 'auto'], { error: "Only 'none' or 'auto' is supported: tools are not" })
    .nullish(),
  /** The deprecated form of `tools`, refused alike. */
  functions: z
    .array(z.unknown(), { error: 'Must be a list' })
    .max(0, 'Functions are not supported: the application answers from its knowledge and calls none')
    .nullish(),
  function_call: z
    .enum(['none', 'auto'], { error: "Only 'none' or 'auto' is supported: functions are not" })
    .nullish(),
  response_format: z
    .looseObject({
      type: z.literal('text', {
        error: "Only type 'text' is supported: the answer is text with inline [n] citations",
      }),
    })
    .nullish(),
  /** Cairn: continue this stored conversation (its history is used; earlier `messages` are not). */
  conversation_id: z.uuid({ error: 'Not a valid conversation id' }).nullish(),
});
export type TChatCompletionRequest = z.infer<typeof ZChatCompletionRequest>;

export const ZCompletionUsage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type TCompletionUsage = z.infer<typeof ZCompletionUsage>;

export const ZFinishReason = z.enum(['stop', 'length']);

const cairnFields = {
  /** Cairn: the stored conversation (a chatroom of the application); send it back to continue. */
  conversation_id: z.uuid(),
};

export const ZChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      logprobs: z.null(),
      finish_reason: ZFinishReason,
    }),
  ),
  usage: ZCompletionUsage,
  ...cairnFields,
  /** Cairn: the passages cited as `[n]` in the content. */
  sources: z.array(ZSource),
});
export type TChatCompletion = z.infer<typeof ZChatCompletion>;

/** One SSE `data:` chunk of a streamed completion (documented; streaming answers are text/event-stream). */
export const ZChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      logprobs: z.null(),
      finish_reason: ZFinishReason.nullable(),
    }),
  ),
  usage: ZCompletionUsage.nullish(),
  ...cairnFields,
  /** Cairn: on the chunk that carries `finish_reason`, the passages cited in the whole answer. */
  sources: z.array(ZSource).optional(),
});
export type TChatCompletionChunk = z.infer<typeof ZChatCompletionChunk>;

export const ZPublicModel = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
});
export const ZPublicModelList = z.object({ object: z.literal('list'), data: z.array(ZPublicModel) });
export type TPublicModel = z.infer<typeof ZPublicModel>;

/** The OpenAI error body, which OpenAI clients turn into their error classes. */
export const ZOpenAIErrorBody = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type TOpenAIErrorBody = z.infer<typeof ZOpenAIErrorBody>;
